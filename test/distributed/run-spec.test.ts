/**
 * A run's spec carries the resolved policy to the workers without the built-in default concurrency, so a
 * worker knows which limits the policy wrote (those hold across workers) and which only bound one process.
 */
import { describe, expect, it } from 'vitest';
import { specOf } from '../../src/distributed/run-spec.ts';
import { dag } from '../../src/document/builder.ts';
import { resolveRecordedPolicy } from '../../src/policy/recorded.ts';
import { resolvePolicy, writtenConcurrency } from '../../src/policy/resolve.ts';
import type { PolicyInput } from '../../src/policy/types.ts';

const doc = dag('urn:test:spec', { name: 'spec', version: '1' })
  .entry('work')
  .task('work', 'urn:test:work')
  .route('ok', 'done')
  .terminal('done', 'completed')
  .build();

/** The policy a worker resolves from the spec written for `input`, as `readSpec` does. */
function workerPolicy(input: PolicyInput) {
  const spec = specOf(doc, [], resolvePolicy(input), undefined, 1);
  return resolveRecordedPolicy(JSON.parse(JSON.stringify(spec.policy)));
}

describe('the policy in a run spec', () => {
  it('leaves the unwritten default concurrency to the workers, and keeps every other field', () => {
    const policy = workerPolicy({ defaults: { jitter: 'none' }, run: { deadlineMs: 5000 } });
    expect(writtenConcurrency(policy, 'urn:test:spec', 'work', 'urn:test:work')).toBeUndefined();
    expect(policy.defaults).toEqual(resolvePolicy({ defaults: { jitter: 'none' } }).defaults);
    expect(policy.run.deadlineMs).toBe(5000);
  });

  it('carries a written concurrency, in the defaults or a layer', () => {
    expect(writtenConcurrency(workerPolicy({ defaults: { concurrency: 16 } }), 'urn:test:spec', 'work')).toBe(
      16,
    );
    const byPlacement = workerPolicy({ placements: { work: { concurrency: 3 } } });
    expect(writtenConcurrency(byPlacement, 'urn:test:spec', 'work')).toBe(3);
  });

  it('carries the gates', () => {
    const gates = { api: { placements: ['work'], concurrency: 2, rate: { limit: 5 }, keys: '^k[0-9]$' } };
    expect(workerPolicy({ gates }).gates).toEqual(resolvePolicy({ gates }).gates);
  });
});
