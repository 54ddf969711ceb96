/**
 * The differential corpus: one case per seed, each a root document with the documents it runs, its nodes,
 * a few input items and a policy. Each case is checked with the project's own validator before it runs: a
 * generated document that does not validate is a bug of the generator.
 */
import { isDeepStrictEqual } from 'node:util';
import { libraryOf, loadDagText } from '../../src/document/load.ts';
import type { Dag } from '../../src/document/model.ts';
import { toDocument } from '../../src/document/serialise.ts';
import { analyse } from '../../src/graph/analyse.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import { createRegistry, type NodeDefinition } from '../../src/runtime/node.ts';
import type { AnswerScript } from './answer-script.ts';
import { Draw, feature, type Gen } from './draw.ts';
import { generateDocument, noteReentries } from './generate.ts';
import { type Element, nodeOf, type Plan } from './plans.ts';

/** The run deadline of the cases that have one: far beyond any case's run, and the waits of `long`. */
export const RUN_DEADLINE_MS = 20_000;

/** One generated case. */
export interface DiffCase {
  readonly seed: number;
  readonly root: Dag;
  /** The documents the root embeds or scatters over, transitively. */
  readonly library: readonly Dag[];
  readonly plans: ReadonlyMap<string, Plan>;
  readonly nodes: readonly NodeDefinition<string, never>[];
  readonly items: readonly Record<string, unknown>[];
  readonly policy: PolicyInput;
  /** The run deadline given as a run option (the policy's `run.deadlineMs` in other cases). */
  readonly deadlineMs: number | undefined;
  /** How often each feature appears in the case. */
  readonly features: ReadonlyMap<string, number>;
  /** The answers its parked items get (see `answer-script.ts`); absent when it has no await. */
  readonly answers?: AnswerScript;
}

/** Tie patterns: two values each as often as the other, the first seen not the first to reach its count. */
const TIES: readonly (readonly string[])[] = [
  ['a', 'b', 'b', 'a'],
  ['a', 'b', 'b', 'a'],
  ['b', 'a'],
  ['a', 'b', 'a', 'b'],
  ['c', 'a', 'a', 'c', 'b'],
];

function list(draw: Draw, levels: number, counts: { ties: number }): Element[] {
  const tie = draw.chance(0.35);
  if (tie) counts.ties++;
  const values = tie
    ? draw.pick(TIES)
    : Array.from({ length: draw.int(0, 4) }, () => draw.pick(['a', 'b', 'c']));
  return values.map((v) => {
    const k = draw.int(0, 40);
    return levels > 0 && draw.chance(0.6)
      ? { v, k, list: list(draw, levels - 1, counts).slice(0, 2) }
      : { v, k };
  });
}

/** The case of `seed`. */
export function generateCase(seed: number): DiffCase {
  const draw = new Draw(seed * 7919 + 17);
  const runDeadline = draw.chance(0.3);
  const g: Gen = {
    seed,
    draw,
    docs: [],
    plans: new Map(),
    placements: {},
    features: new Map(),
    runDeadline,
    runs: new Map(),
    reentered: new Set(),
    made: 0,
  };
  generateDocument(g, 0, 'root');
  noteReentries(g);
  const counts = { ties: 0 };
  const items = Array.from({ length: draw.int(2, 4) }, (_, i) => {
    const item: Record<string, unknown> = {
      k: i,
      round: 0,
      list: list(draw, 2, counts),
      fixed: list(draw, 2, counts),
    };
    if (draw.chance(0.12)) {
      delete item.list;
      feature(g, 'item without the list a scatter reads');
    }
    return item;
  });
  if (counts.ties > 0) feature(g, 'input lists with ties');
  const honour = draw.chance(0.8);
  if (!honour) feature(g, 'Retry-After not honoured');
  const byOption = runDeadline && draw.chance(0.5);
  if (runDeadline) feature(g, byOption ? 'run deadline (run option)' : 'run deadline (policy)');
  const policy: PolicyInput = {
    defaults: {
      backoff: {
        strategy: draw.pick(['exponential', 'constant'] as const),
        baseMs: draw.int(1, 8),
        factor: 2,
        capMs: draw.int(10, 30),
      },
      jitter: 'none',
      retryAfter: { honour, capMs: 50 },
    },
    placements: g.placements,
    ...(runDeadline && !byOption ? { run: { deadlineMs: RUN_DEADLINE_MS } } : {}),
  };
  const [root, ...library] = g.docs as [Dag, ...Dag[]];
  const nodes = [...g.plans].map(([iri, plan]) => nodeOf(iri, plan));
  return {
    seed,
    root,
    library,
    plans: g.plans,
    nodes,
    items,
    policy,
    deadlineMs: byOption ? RUN_DEADLINE_MS : undefined,
    features: g.features,
  };
}

/**
 * What the project's validator finds wrong with a case (empty when nothing): every document is written out
 * as its canonical JSON-LD, loaded back (the schema) to the same model, and analysed with the case's nodes
 * and library (references, node outputs, reachability, the termination proof).
 */
export async function caseProblems(c: DiffCase): Promise<string[]> {
  const problems: string[] = [];
  const library = libraryOf(c.library);
  const nodes = createRegistry(c.nodes);
  for (const dag of [c.root, ...c.library]) {
    const loaded = await loadDagText(JSON.stringify(toDocument(dag)));
    for (const p of loaded.problems)
      if (p.severity === 'error') problems.push(`${dag.id}: ${p.code} ${p.message}`);
    if (loaded.dag !== undefined && !isDeepStrictEqual(loaded.dag, dag)) {
      problems.push(`${dag.id}: the document loads back as another model`);
    }
    for (const p of analyse(dag, { library, nodes })) {
      if (p.severity === 'error') problems.push(`${dag.id}: ${p.code} ${p.message}`);
    }
  }
  return problems;
}

/** A one-line-per-document outline of a case: each placement with its kind and routes. */
export function outline(c: DiffCase): string {
  const short = (iri: string) => iri.replace(`urn:diff:${c.seed}:`, '');
  return [c.root, ...c.library]
    .map((dag) => {
      const placements = dag.placements.map((p) => {
        const what =
          p.kind === 'embed'
            ? `embed(${short(p.dag)})`
            : p.kind === 'scatter'
              ? `scatter(${p.items}, ${p.dag === undefined ? 'node' : short(p.dag)})`
              : p.kind === 'gather'
                ? `gather(${p.reducer}/${p.require}${p.quorum === undefined ? '' : `/${p.quorum}`})`
                : p.kind;
        const routes = p.routes.map(
          (r) => `${r.output}${r.kind === 'retry' ? '↺' : r.kind === 'salvage' ? '⤳' : '→'}${r.to}`,
        );
        return `${p.key}:${what}${routes.length > 0 ? `[${routes.join(' ')}]` : ''}`;
      });
      return `${short(dag.id)}: ${placements.join(', ')}`;
    })
    .join('\n');
}
