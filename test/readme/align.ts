/**
 * Lines a transcript shows set against the lines a command printed, as a diff does: the cheapest way to go
 * from one to the other, where an elision line takes any number of printed lines for nothing. A shown line
 * is kept when it matches a printed one, replaced by a printed line like it (a changed line), or dropped;
 * printed lines nothing stands for are added.
 */

/** One step of an alignment: `shown` and `real` are line indexes. */
export type Step =
  | { readonly kind: 'match' | 'replace'; readonly shown: number; readonly real: number }
  | { readonly kind: 'drop'; readonly shown: number }
  | { readonly kind: 'add'; readonly real: number }
  | { readonly kind: 'elide'; readonly shown: number; readonly real: readonly number[] };

/** What an alignment asks of the lines. */
export interface Lines {
  readonly shown: number;
  readonly real: number;
  /** Shown line `i` stands for any number of lines. */
  readonly elision: (i: number) => boolean;
  /** Shown line `i` matches printed line `j`. */
  readonly matches: (i: number, j: number) => boolean;
  /** Shown line `i` and printed line `j` are alike enough to be one line changed. */
  readonly alike: (i: number, j: number) => boolean;
}

const DROP = 1;
const ADD = 1;
// Below a drop and an add together, and below either alone, so that a line that changed is written where
// it was rather than swallowed by an elision before it.
const REPLACE = 0.9;

type Move = 'match' | 'replace' | 'drop' | 'add' | 'elide-end' | 'elide-more';

/** The cheapest alignment of the lines, and its cost: 0 when every shown line matches. */
export function align(lines: Lines): { readonly cost: number; readonly steps: readonly Step[] } {
  const { shown: n, real: m } = lines;
  const cost = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  const move = Array.from({ length: n + 1 }, () => new Array<Move>(m + 1).fill('add'));
  for (let i = n; i >= 0; i--) {
    const row = cost[i] as number[];
    const below = (cost[i + 1] ?? []) as number[];
    for (let j = m; j >= 0; j--) {
      if (i === n) {
        row[j] = (m - j) * ADD;
        continue;
      }
      const options: [number, Move][] = [];
      if (lines.elision(i)) {
        options.push([below[j] ?? 0, 'elide-end']);
        if (j < m) options.push([row[j + 1] ?? 0, 'elide-more']);
      } else {
        if (j < m && lines.matches(i, j)) options.push([below[j + 1] ?? 0, 'match']);
        if (j < m && lines.alike(i, j)) options.push([REPLACE + (below[j + 1] ?? 0), 'replace']);
        options.push([DROP + (below[j] ?? 0), 'drop']);
        if (j < m) options.push([ADD + (row[j + 1] ?? 0), 'add']);
      }
      const [best, how] = options.reduce((a, b) => (b[0] < a[0] - 1e-9 ? b : a));
      row[j] = best;
      (move[i] as Move[])[j] = how;
    }
  }
  const steps: Step[] = [];
  let i = 0;
  let j = 0;
  let absorbed: number[] = [];
  while (i < n || j < m) {
    const how = i === n ? 'add' : (move[i]?.[j] ?? 'add');
    if (how === 'elide-more') absorbed.push(j++);
    else if (how === 'elide-end') {
      steps.push({ kind: 'elide', shown: i++, real: absorbed });
      absorbed = [];
    } else if (how === 'match' || how === 'replace') steps.push({ kind: how, shown: i++, real: j++ });
    else if (how === 'drop') steps.push({ kind: 'drop', shown: i++ });
    else steps.push({ kind: 'add', real: j++ });
  }
  return { cost: cost[0]?.[0] ?? 0, steps };
}

/** Whether two lines share at least half their words (counted as a Dice coefficient). */
export function alikeLines(a: string, b: string): boolean {
  const words = (line: string) => line.split(/\s+/u).filter((w) => w !== '');
  const left = words(a);
  const right = words(b);
  if (left.length === 0 || right.length === 0) return false;
  const pool = new Map<string, number>();
  for (const w of left) pool.set(w, (pool.get(w) ?? 0) + 1);
  let common = 0;
  for (const w of right) {
    const k = pool.get(w) ?? 0;
    if (k > 0) {
      common++;
      pool.set(w, k - 1);
    }
  }
  return (2 * common) / (left.length + right.length) >= 0.5;
}
