/**
 * The DAGs and nodes of the W1 and W2 workloads, built once for every benchmark that runs them. Each takes
 * the builder, the compiler and the node factory it should use, so that the A/B benchmark can build the
 * same workloads with an older tree's modules; by default they are this tree's.
 */
import { dag } from '../src/document/builder.ts';
import type { Dag } from '../src/document/model.ts';
import { type CompiledDag, compile } from '../src/graph/compile.ts';
import { defineNode, type NodeDefinition } from '../src/runtime/node.ts';
import { w2DocumentsWith } from './w2-documents.ts';

/** The engine parts a workload is built with. */
export interface EngineParts {
  readonly dag: typeof dag;
  readonly compile: typeof compile;
  readonly defineNode: typeof defineNode;
}

const THIS_TREE: EngineParts = { dag, compile, defineNode };

/** The budget of W1's compose → validate loop. */
export const W1_BUDGET = 3;

/** W1's policy: no back-off and no jitter, so a run measures the engine alone. */
export const W1_POLICY = {
  defaults: { backoff: { strategy: 'constant', baseMs: 0, capMs: 0 }, jitter: 'none' },
} as const;

/**
 * W1: a compose → validate loop whose validator rejects every draft, so the budget of 3 is spent and the
 * item salvages: 9 node executions per run.
 */
export function w1Workload(parts: EngineParts = THIS_TREE): {
  readonly compiled: CompiledDag;
  readonly nodes: NodeDefinition<string, never>[];
} {
  const compiled = parts.compile(
    parts
      .dag('urn:bench:w1', { name: 'W1 compose-validate', version: '1' })
      .budget('compose', W1_BUDGET)
      .entry('compose')
      .task('compose', 'urn:bench:compose')
      .route('drafted', 'validate')
      .task('validate', 'urn:bench:validate')
      .route('valid', 'done')
      .retry('invalid', 'compose', { budget: 'compose', exhausted: 'salvage' })
      .task('salvage', 'urn:bench:salvage')
      .route('salvaged', 'done')
      .terminal('done', 'completed')
      .build(),
  );
  const nodes = [
    parts.defineNode({
      id: 'urn:bench:compose',
      outputs: ['drafted'],
      run: (item, ctx) => {
        item.data.draft = `${String(item.data.topic)} #${ctx.visit}`;
        return 'drafted';
      },
    }),
    parts.defineNode({
      id: 'urn:bench:validate',
      outputs: ['valid', 'invalid'],
      run: (item) => (item.data.draft === undefined ? 'valid' : 'invalid'),
    }),
    parts.defineNode({
      id: 'urn:bench:salvage',
      outputs: ['salvaged'],
      run: (item) => {
        item.data.salvaged = true;
        return 'salvaged';
      },
    }),
  ] as NodeDefinition<string, never>[];
  return { compiled, nodes };
}

/**
 * W2's documents: a scatter over `/xs` through a two-task sub-DAG (`urn:bench:double` then
 * `urn:bench:increment`), gathered into `/out`. The child goes in the dispatcher's library.
 */
export function w2Documents(parts: EngineParts = THIS_TREE): {
  readonly child: Dag;
  readonly parent: CompiledDag;
} {
  return w2DocumentsWith(parts);
}
