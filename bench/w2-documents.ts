/**
 * W2's documents, built with the engine parts given: this tree's sources (bench/workloads.ts), or the
 * compiled package, for a process that runs without tsx (bench/w2-memory-child.ts). Only types are imported
 * here, so the module loads no engine of its own.
 */
import type { CompiledDag, compile, Dag, dag } from 'switchyard';

/** The engine parts the W2 documents are built with. */
export interface W2Parts {
  readonly dag: typeof dag;
  readonly compile: typeof compile;
}

/**
 * W2's documents: a scatter over `/xs` through a two-task sub-DAG (`urn:bench:double` then
 * `urn:bench:increment`), gathered into `/out`. The child goes in the dispatcher's library.
 */
export function w2DocumentsWith(parts: W2Parts): { readonly child: Dag; readonly parent: CompiledDag } {
  const child = parts
    .dag('urn:bench:w2:child', { name: 'W2 child', version: '1' })
    .entry('double')
    .task('double', 'urn:bench:double')
    .route('ok', 'increment')
    .task('increment', 'urn:bench:increment')
    .route('ok', 'done')
    .terminal('done', 'completed')
    .build();
  const parent = parts.compile(
    parts
      .dag('urn:bench:w2', { name: 'W2 scatter', version: '1' })
      .entry('fan')
      .scatter('fan', { items: '/xs', dag: 'urn:bench:w2:child' })
      .route('done', 'join')
      .gather('join', { into: '/out', reducer: 'collect' })
      .route('completed', 'ok')
      .route('failed', 'ko')
      .terminal('ok', 'completed')
      .terminal('ko', 'failed')
      .build(),
  );
  return { child, parent };
}
