import { dag } from '../../src/document/builder.ts';
import type { Dag } from '../../src/document/model.ts';

/** The back-off of a retry route, ms. */
export const RETRY_MS = 1_000;

const HEADER = { name: 'await-edges', version: '1' };

/**
 * A review loop: draft → review (await approved | revise, data at /review); revise goes back to draft
 * through a retry route of budget `rounds` (2), exhausted → drop; deadline → escalate.
 */
export const revisable: Dag = dag('urn:switchyard:test:revise', HEADER)
  .budget('rounds', 2)
  .task('draft', 'urn:test:draft')
  .await('review', { answers: ['approved', 'revise'], into: '/review' })
  .terminal('publish', 'completed')
  .terminal('drop', 'failed')
  .terminal('escalate', 'failed')
  .entry('draft')
  .from('draft')
  .route('done', 'review')
  .from('review')
  .route('approved', 'publish')
  .retry('revise', 'draft', { budget: 'rounds', exhausted: 'drop' })
  .route('deadline', 'escalate')
  .build();

/** An await whose answer's data replaces the item's whole data (`into: ''`). */
export const replacing: Dag = dag('urn:switchyard:test:replace', HEADER)
  .await('review', { answers: ['approved'], into: '' })
  .terminal('publish', 'completed')
  .terminal('escalate', 'failed')
  .entry('review')
  .from('review')
  .route('approved', 'publish')
  .route('deadline', 'escalate')
  .build();

/**
 * Two awaits one after the other with different answers: draft → first (go | stop) → second (yes | no);
 * every other answer and deadline ends the item at a terminal of its own.
 */
export const twoAwaits: Dag = dag('urn:switchyard:test:two-awaits', HEADER)
  .task('draft', 'urn:test:draft')
  .await('first', { answers: ['go', 'stop'] })
  .await('second', { answers: ['no', 'yes'] })
  .terminal('stopped', 'failed')
  .terminal('late1', 'failed')
  .terminal('late2', 'failed')
  .terminal('yes', 'completed')
  .terminal('no', 'failed')
  .entry('draft')
  .from('draft')
  .route('done', 'first')
  .from('first')
  .route('go', 'second')
  .route('stop', 'stopped')
  .route('deadline', 'late1')
  .from('second')
  .route('yes', 'yes')
  .route('no', 'no')
  .route('deadline', 'late2')
  .build();

/** A root scattering /list over {@link twoAwaits}: its children ('1.0', …) park at its awaits. */
export const fanOfTwo: Dag = dag('urn:switchyard:test:fan-of-two', HEADER)
  .scatter('fan', { items: '/list', dag: twoAwaits.id })
  .gather('g', { into: '/gathered', reducer: 'collect', require: 'any' })
  .terminal('done', 'completed')
  .terminal('none', 'failed')
  .entry('fan')
  .from('fan')
  .route('done', 'g')
  .from('g')
  .route('completed', 'done')
  .route('failed', 'none')
  .build();

/** Deadlines of `ms` for every await placement of the documents above; a retry waits 1 s. */
export function edgesPolicy(ms: number) {
  return {
    defaults: { backoff: { strategy: 'constant' as const, baseMs: RETRY_MS }, jitter: 'none' as const },
    placements: { review: { deadlineMs: ms }, first: { deadlineMs: ms }, second: { deadlineMs: ms } },
  };
}
