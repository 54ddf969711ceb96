/**
 * The seeded choices of the generator, and what one case's generation collects.
 */
import type { Dag } from '../../src/document/model.ts';
import { seededRandom } from '../../src/policy/random.ts';
import type { TimingOverride } from '../../src/policy/types.ts';
import type { Plan } from './plans.ts';

/** A seeded source of choices. */
export class Draw {
  private readonly random: () => number;
  constructor(seed: number) {
    this.random = seededRandom(seed);
  }
  next(): number {
    return this.random();
  }
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.random() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.random() < p;
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.random() * list.length)] as T;
  }
  /** One of `choices`, each as likely as its weight. */
  weighted<T>(choices: readonly (readonly [T, number])[]): T {
    const total = choices.reduce((sum, [, w]) => sum + w, 0);
    let r = this.random() * total;
    for (const [value, w] of choices) {
      if (r < w) return value;
      r -= w;
    }
    return (choices.at(-1) as readonly [T, number])[0];
  }
}

/** What the generation of one case collects. */
export interface Gen {
  readonly seed: number;
  readonly draw: Draw;
  /** Every document, the root first. */
  readonly docs: Dag[];
  /** Node plans by node IRI. */
  readonly plans: Map<string, Plan>;
  /** Policy overrides by `<document IRI>#<placement key>`. */
  readonly placements: Record<string, TimingOverride>;
  /** How often each feature appears. */
  readonly features: Map<string, number>;
  /** The case has a run deadline: a node may ask for a wait longer than it leaves. */
  readonly runDeadline: boolean;
  /** The document each embed and sub-DAG scatter runs, by `<document IRI>#<key>`. */
  readonly runs: Map<string, string>;
  /** The embeds and scatters a retry route can enter again, by `<document IRI>#<key>`. */
  readonly reentered: Set<string>;
  /** Child documents made so far, to name the next. */
  made: number;
}

export function feature(g: Gen, name: string): void {
  g.features.set(name, (g.features.get(name) ?? 0) + 1);
}
