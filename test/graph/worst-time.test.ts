import { describe, expect, it } from 'vitest';
import type { Dag } from '../../src/document/model.ts';
import { computeBounds } from '../../src/graph/bounds.ts';
import { compile } from '../../src/graph/compile.ts';
import { worstCaseTime } from '../../src/graph/worst-time.ts';
import { resolvePolicy } from '../../src/policy/resolve.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import { libraryOf, sampleDags } from './helpers.ts';

const samples = sampleDags();
const library = libraryOf(samples.values());

function timeOf(name: string, input: PolicyInput, withLibrary = false) {
  const compiled = compile(samples.get(name) as Dag);
  const lib = withLibrary ? library : undefined;
  return worstCaseTime(compiled, computeBounds(compiled, lib), resolvePolicy(input), lib);
}

const constant: PolicyInput = {
  defaults: {
    deadlineMs: 1000,
    backoff: { strategy: 'constant', baseMs: 50, capMs: 50 },
    jitter: 'none',
    retryAfter: { honour: false },
  },
};

describe('worstCaseTime', () => {
  it('sums executions × deadline and the waits of every spend', () => {
    const time = timeOf('nested-retry.jsonld', constant);
    // plan 3, execute 12, check 3 executions of 1 s; replan 2 + step 9 waits of 50 ms.
    expect(time.perPlacement.get('execute')).toBe(12_000n);
    expect(time.backoffMs).toBe(11n * 50n);
    expect(time.totalMs).toBe(18_000n + 550n);
    expect(time.unboundedBecause).toBeUndefined();
    expect(time.cappedByRunDeadline).toBe(false);
  });

  it('counts exponential back-off per attempt, up to its cap', () => {
    const time = timeOf('nested-retry.jsonld', {
      defaults: {
        ...constant.defaults,
        backoff: { strategy: 'exponential', baseMs: 100, factor: 2, capMs: 1000 },
      },
    });
    // step: 100 + 200 + 400 + 800 + 5 × 1000; replan: 100 + 200.
    expect(time.backoffMs).toBe(6500n + 300n);
  });

  it('takes the Retry-After cap when hints are honoured and it is larger', () => {
    const time = timeOf('nested-retry.jsonld', {
      defaults: { ...constant.defaults, retryAfter: { honour: true, capMs: 5000 } },
    });
    expect(time.backoffMs).toBe(11n * 5000n);
  });

  it('uses placement overrides', () => {
    const time = timeOf('nested-retry.jsonld', { ...constant, placements: { execute: { deadlineMs: 10 } } });
    expect(time.perPlacement.get('execute')).toBe(120n);
    expect(time.totalMs).toBe(6_000n + 120n + 550n);
  });

  it('is undefined, saying why, when an executed placement has no deadline', () => {
    const time = timeOf('nested-retry.jsonld', {
      ...constant,
      placements: { check: { deadlineMs: undefined } },
    });
    expect(time.totalMs).toBeUndefined();
    expect(time.unboundedBecause).toContain("placement 'check' has no deadline");
    expect(time.perPlacement.has('check')).toBe(false);
  });

  it('is capped by the run deadline', () => {
    const capped = timeOf('nested-retry.jsonld', { ...constant, run: { deadlineMs: 10_000 } });
    expect(capped).toMatchObject({ totalMs: 10_000n, cappedByRunDeadline: true });
    const roomy = timeOf('nested-retry.jsonld', { ...constant, run: { deadlineMs: 60_000 } });
    expect(roomy).toMatchObject({ totalMs: 18_550n, cappedByRunDeadline: false });
    const noDeadlines = timeOf('nested-retry.jsonld', { run: { deadlineMs: 20_000 } });
    expect(noDeadlines.totalMs).toBe(20_000n);
    expect(noDeadlines.unboundedBecause).toContain('no deadline');
  });

  it('includes the worst case of embedded documents', () => {
    const child = timeOf('compose-validate.jsonld', constant).totalMs as bigint;
    const time = timeOf('review.jsonld', constant, true);
    expect(time.perPlacement.get('draft')).toBe(3n * child);
    // review 3 times, escalate once (no retry can follow it), and the two spends of the review budget.
    expect(time.totalMs).toBe(3n * child + 3n * 1000n + 1n * 1000n + 2n * 50n);
    const unknown = timeOf('review.jsonld', constant);
    expect(unknown.totalMs).toBeUndefined();
    expect(unknown.unboundedBecause).toContain('not in the library');
  });

  it('bounds a scatter only by the run deadline, and reports the time per child', () => {
    const time = timeOf('scatter-gather.jsonld', constant);
    expect(time.totalMs).toBeUndefined();
    expect(time.unboundedBecause).toContain(
      "scatter 'search' fans out over a list whose length is not known",
    );
    expect(time.perChild.get('search')).toBe(1000n);
    expect(time.perPlacement.get('rank')).toBe(1000n);
    const capped = timeOf('scatter-gather.jsonld', { ...constant, run: { deadlineMs: 9000 } });
    expect(capped).toMatchObject({ totalMs: 9000n, cappedByRunDeadline: true });
  });

  it('bounds decorrelated back-off by its cap', () => {
    const time = timeOf('nested-retry.jsonld', {
      defaults: {
        ...constant.defaults,
        backoff: { strategy: 'decorrelated', baseMs: 10, factor: 3, capMs: 700 },
      },
    });
    expect(time.backoffMs).toBe(11n * 700n);
  });
});
