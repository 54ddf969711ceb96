/**
 * The document most gate tests run: one task placement, `call` (node `urn:test:call`), retried on the
 * budget `again` of 3 and exhausted to `failed`; `error` goes to `failed`, `ok` to `done`.
 */
import { dag } from '../../src/document/builder.ts';
import type { Dag } from '../../src/document/model.ts';

/** The call chain as document `iri`. */
export function callChain(iri: string): Dag {
  const name = iri.slice(iri.lastIndexOf(':') + 1);
  return dag(iri, { name, version: '1' })
    .budget('again', 3)
    .entry('call')
    .task('call', 'urn:test:call')
    .route('ok', 'done')
    .retry('retry', 'call', { budget: 'again', exhausted: 'failed' })
    .route('error', 'failed')
    .terminal('done', 'completed')
    .terminal('failed', 'failed')
    .build();
}
