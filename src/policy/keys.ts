/**
 * The override keys of a policy checked against the documents it is used with: a placement key, a
 * `<dag IRI>#<key>` or a node IRI that names nothing in them is a problem, since a misspelt key would
 * silently leave a deadline or back-off at its default.
 */
import type { Dag, DagLibrary } from '../document/model.ts';
import { type Problem, problem } from '../errors.ts';
import type { ProblemSource } from './schema.ts';
import type { PolicyInput } from './types.ts';

/** Every document a run of `dag` can reach: itself, and the documents it embeds or scatters through. */
export function documentsInScope(dag: Dag, library?: DagLibrary): Dag[] {
  const seen = new Map<string, Dag>([[dag.id, dag]]);
  const queue = [dag];
  for (let i = 0; i < queue.length; i++) {
    for (const placement of (queue[i] as Dag).placements) {
      const child =
        'dag' in placement && placement.dag !== undefined ? library?.get(placement.dag) : undefined;
      if (child !== undefined && !seen.has(child.id)) {
        seen.set(child.id, child);
        queue.push(child);
      }
    }
  }
  return queue;
}

/** Levenshtein distance, cut off above `limit` (then `limit + 1`); linear memory. */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length] as number;
}

/**
 * The candidate closest to `name`, when it is close enough to be a likely misspelling: at most a third of
 * the name's length in edits (at least 1, at most 8), or the same name in another case.
 */
export function closest(name: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.min(8, Math.max(1, Math.floor(name.length / 3)));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const d = candidate.toLowerCase() === name.toLowerCase() ? 0.5 : distance(name, candidate, limit);
    if (d < bestDistance || (d === bestDistance && best !== undefined && candidate < best)) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** A key as one segment of a JSON pointer (RFC 6901). */
export function escapePointer(segment: string): string {
  return segment.replace(/~/gu, '~0').replace(/\//gu, '~1');
}

/** The names a policy may use for the documents in scope, and how to say which documents those are. */
export interface Names {
  readonly keys: ReadonlySet<string>;
  readonly qualified: ReadonlySet<string>;
  readonly nodes: ReadonlySet<string>;
  readonly scope: string;
}

/**
 * The placement keys, `<dag IRI>#<key>` names and node IRIs of `dags`; `scope` says which documents those
 * are in messages (by default the first, and the documents it embeds).
 */
export function namesOf(dags: readonly Dag[], scope?: string): Names {
  const keys = new Set<string>();
  const qualified = new Set<string>();
  const nodes = new Set<string>();
  for (const dag of dags) {
    for (const p of dag.placements) {
      keys.add(p.key);
      qualified.add(`${dag.id}#${p.key}`);
      if ('node' in p && p.node !== undefined) nodes.add(p.node);
    }
  }
  const said =
    scope ?? `${dags[0]?.id ?? 'the document'}${dags.length > 1 ? ' or the documents it embeds' : ''}`;
  return { keys, qualified, nodes, scope: said };
}

/** Why `key` of `placements` names nothing (undefined when it names a placement); `suggest` adds a guess. */
function placementKeyProblem(
  key: string,
  dags: readonly Dag[],
  names: Names,
  suggest: boolean,
): string | undefined {
  if (names.keys.has(key) || names.qualified.has(key)) return undefined;
  // `<dag IRI>#<key>`: the IRI may itself hold a `#`, so each document's IRI is tried as a prefix.
  const owner = dags.find((dag) => key.startsWith(`${dag.id}#`));
  if (owner !== undefined) {
    const rest = key.slice(owner.id.length + 1);
    const near = suggest
      ? closest(
          rest,
          owner.placements.map((p) => p.key),
        )
      : undefined;
    const fix =
      near === undefined ? 'name one of its placements, or remove it' : `did you mean '${owner.id}#${near}'?`;
    return `placement override '${key}': ${owner.id} has no placement '${rest}' — ${fix}`;
  }
  const near = suggest ? closest(key, [...names.keys, ...names.qualified]) : undefined;
  const fix = near === undefined ? 'name a placement key, or remove it' : `did you mean '${near}'?`;
  return `placement override '${key}' names no placement of ${names.scope} — ${fix}`;
}

function nodeKeyProblem(key: string, names: Names, suggest: boolean): string | undefined {
  if (names.nodes.has(key)) return undefined;
  const near = suggest ? closest(key, names.nodes) : undefined;
  const fix =
    near === undefined ? 'name the IRI of a node placed there, or remove it' : `did you mean '${near}'?`;
  return `node override '${key}' names no node placed in ${names.scope} — ${fix}`;
}

/** Past this many unknown keys, no more "did you mean" is searched for: a guess costs a scan of every name. */
const MAX_SUGGESTIONS = 20;

/**
 * Every override key of `policy` as written (the parsed file, so that a `__proto__` key is seen too) that names no placement (bare, or `<dag IRI>#<key>`) or node of `dags` (the
 * documents a run can reach, see {@link documentsInScope}), as `E_POLICY_UNKNOWN_KEY` errors with their
 * pointer into the policy, line and column when `source` can locate them, and a "did you mean" when a name
 * is close. `scope` says which documents `dags` are in messages (see {@link namesOf}).
 * @example
 * const problems = unknownPolicyKeys(policy, documentsInScope(dag, library));
 */
export function unknownPolicyKeys(
  policy: Pick<PolicyInput, 'nodes' | 'placements'>,
  dags: readonly Dag[],
  source: ProblemSource = {},
  scope?: string,
): Problem[] {
  const problems: Problem[] = [];
  const names = namesOf(dags, scope);
  const report = (section: 'nodes' | 'placements', key: string) => {
    const suggest = problems.length < MAX_SUGGESTIONS;
    const message =
      section === 'nodes'
        ? nodeKeyProblem(key, names, suggest)
        : placementKeyProblem(key, dags, names, suggest);
    if (message === undefined) return;
    const pointer = `/${section}/${escapePointer(key)}`;
    const position = source.locate?.(pointer);
    problems.push(
      problem('E_POLICY_UNKNOWN_KEY', message, {
        pointer,
        ...(source.file === undefined ? {} : { file: source.file }),
        ...(position === undefined ? {} : { line: position.line, column: position.column }),
      }),
    );
  };
  for (const key of Object.keys(policy.placements ?? {})) report('placements', key);
  for (const key of Object.keys(policy.nodes ?? {})) report('nodes', key);
  return problems;
}
