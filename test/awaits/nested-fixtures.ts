import { dag } from '../../src/document/builder.ts';
import type { Dag } from '../../src/document/model.ts';
import { defineNode } from '../../src/runtime/node.ts';

const HEADER = { name: 'nested-awaits', version: '1' };

/** IRI of the document each scatter child runs: a check, then a review that waits for an answer. */
export const BODY = 'urn:switchyard:test:await-body';
/** IRI of the document an embed runs: a draft, then a review that waits for an answer. */
export const INNER = 'urn:switchyard:test:await-inner';

/** Node calls by node and item id, so that a test can tell a node never ran twice. */
export type Calls = Map<string, number>;

/** A node that counts its calls and marks the item checked (data.checked = the element). */
export function checkNode(calls: Calls) {
  return defineNode({
    id: 'urn:test:check',
    outputs: ['ok'],
    run: (item) => {
      const key = `check ${item.id}`;
      calls.set(key, (calls.get(key) ?? 0) + 1);
      item.data.checked = item.data.item ?? true;
      return 'ok';
    },
  });
}

/** The scatter body: check → review (await approved | rejected, data at /result) → good | poor; deadline → late. */
export const body: Dag = dag(BODY, HEADER)
  .task('check', 'urn:test:check')
  .await('review', { answers: ['approved', 'rejected'], into: '/result' })
  .terminal('good', 'completed')
  .terminal('poor', 'failed')
  .terminal('late', 'failed')
  .entry('check')
  .from('check')
  .route('ok', 'review')
  .from('review')
  .route('approved', 'good')
  .route('rejected', 'poor')
  .route('deadline', 'late')
  .build();

/** A root scattering /list over {@link body}, partitioned into /gathered; any completed child completes it. */
export const fanned: Dag = dag('urn:switchyard:test:await-fan', HEADER)
  .scatter('fan', { items: '/list', dag: BODY })
  .gather('g', { into: '/gathered', reducer: 'partition', require: 'any' })
  .terminal('ok', 'completed')
  .terminal('bad', 'failed')
  .entry('fan')
  .from('fan')
  .route('done', 'g')
  .from('g')
  .route('completed', 'ok')
  .route('failed', 'bad')
  .build();

/** The embedded document: check → review (await approved | rejected, data at /verdict) → yes | no; deadline → late. */
export const inner: Dag = dag(INNER, HEADER)
  .task('check', 'urn:test:check')
  .await('review', { answers: ['approved', 'rejected'], into: '/verdict' })
  .terminal('yes', 'completed')
  .terminal('no', 'failed')
  .terminal('late', 'failed')
  .entry('check')
  .from('check')
  .route('ok', 'review')
  .from('review')
  .route('approved', 'yes')
  .route('rejected', 'no')
  .route('deadline', 'late')
  .build();

/** A root embedding {@link inner}: /title in, /verdict and /checked back out to /review and /checked. */
export const embedding: Dag = dag('urn:switchyard:test:await-embed', HEADER)
  .embed('sub', INNER, {
    input: [{ from: '/title', to: '/title' }],
    result: [
      { from: '/checked', to: '/checked' },
      { from: '/verdict', to: '/review' },
    ],
  })
  .terminal('ok', 'completed')
  .terminal('bad', 'failed')
  .entry('sub')
  .from('sub')
  .route('completed', 'ok')
  .route('failed', 'bad')
  .build();

/** A policy giving the review await of `iri` a deadline of `ms`. */
export function nestedPolicy(iri: string, ms: number) {
  return { placements: { [`${iri}#review`]: { deadlineMs: ms } } };
}
