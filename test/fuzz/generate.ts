/**
 * Random documents for fuzz cases: valid DAGs from the runtime property tests' generator (tasks, embeds,
 * scatter/gather pairs, retry loops, phases, child documents), the same with one mutation (near-valid), and
 * chains of nested retry loops whose worst-case counts overflow floating point.
 */
import fc from 'fast-check';
import { dag as buildDag } from '../../src/document/builder.ts';
import { toDocument } from '../../src/document/serialise.ts';
import { generatedDagArbitrary } from '../runtime/arbitraries.ts';
import type { FuzzCase } from './commands.ts';
import { documentBytes, inputFor, nodeSpecsOf } from './documents.ts';
import { type Mutation, mutate, prototypeMutation, structureMutation } from './mutate.ts';
import { Obj, Raw, type Tree, toTree } from './tree.ts';

/** A generated root document with the documents it runs, and the mutation applied to the root, if any. */
export interface GeneratedDocs {
  readonly root: Tree;
  readonly children: readonly Tree[];
  readonly mutation: Mutation | undefined;
}

/** Random valid documents, and one in three of them mutated. */
export const generatedDocsArbitrary: fc.Arbitrary<GeneratedDocs> = fc
  .record({
    generated: generatedDagArbitrary,
    mutation: fc.option(fc.oneof(prototypeMutation, structureMutation), { freq: 2 }),
  })
  .map(({ generated, mutation }) => {
    const root = toTree(toDocument(generated.dag));
    return {
      root: mutation === null ? root : mutate(root, mutation),
      children: generated.library.map((d) => toTree(toDocument(d))),
      mutation: mutation ?? undefined,
    };
  });

/** A chain of placements in which each loop encloses the one before it: budget `b<i>` resets all inner ones. */
export interface NestedLoops {
  readonly depth: number;
  /** Each budget's `max`, as JSON text (so it can be `1e308` or an unsafe integer). */
  readonly max: string;
}

export const nestedLoopsArbitrary: fc.Arbitrary<NestedLoops> = fc.record({
  depth: fc.integer({ min: 1, max: 70 }),
  max: fc.constantFrom('1', '2', '3', '10', '1000', '9007199254740993', '1e308'),
});

/** The document of {@link NestedLoops}: `s0 … s<n-1>`, `s<i>` retrying to `s0` on `again<i>`. */
export function nestedLoopsDocument(spec: NestedLoops): Tree {
  let builder = buildDag('urn:fuzz:dag:nested-loops', { name: 'nested loops', version: '1' }).entry('s0');
  for (let i = 0; i < spec.depth; i++) builder = builder.budget(`b${i}`, 1);
  for (let i = 0; i < spec.depth; i++) {
    builder = builder
      .task(`s${i}`, 'urn:fuzz:node:step')
      .route('ok', i + 1 < spec.depth ? `s${i + 1}` : 'done')
      .retry(`again${i}`, 's0', {
        budget: `b${i}`,
        exhausted: 'gave_up',
        ...(i > 0 ? { resets: Array.from({ length: i }, (_, j) => `b${j}`) } : {}),
      });
  }
  const tree = toTree(
    toDocument(builder.terminal('done', 'completed').terminal('gave_up', 'failed').build()),
  );
  const budgets = tree instanceof Obj ? tree.get('budgets') : undefined;
  if (Array.isArray(budgets)) for (const b of budgets) if (b instanceof Obj) b.set('max', new Raw(spec.max));
  return tree;
}

/** A case of generated documents: the root at `dags/gen/root.jsonld`, children beside it. */
export function generatedCase(root: Tree, children: readonly Tree[], seed: number, items: number): FuzzCase {
  const files = new Map<string, string | Uint8Array>([['dags/gen/root.jsonld', documentBytes(root)]]);
  for (const [i, child] of children.entries()) files.set(`dags/gen/child-${i}.jsonld`, documentBytes(child));
  const trees = [root, ...children];
  return {
    files,
    target: 'dags/gen/root.jsonld',
    nodes: nodeSpecsOf(trees),
    seed,
    input: inputFor(trees, items, false),
  };
}
