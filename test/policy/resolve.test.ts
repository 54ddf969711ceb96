import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isSwitchyardError, type SwitchyardError } from '../../src/errors.ts';
import { defaultPolicy } from '../../src/policy/defaults.ts';
import { loadPolicyFile } from '../../src/policy/load.ts';
import { resolvePolicy, timingFor, writtenConcurrency } from '../../src/policy/resolve.ts';
import type { PolicyInput } from '../../src/policy/types.ts';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/policies/${name}`, import.meta.url));
const dagsDir = fileURLToPath(new URL('../../dags/', import.meta.url));
const DAG = 'urn:switchyard:dag:compose-validate';

function thrown(fn: () => unknown): SwitchyardError {
  try {
    fn();
  } catch (error) {
    if (isSwitchyardError(error)) return error;
    throw error;
  }
  throw new Error('expected a SwitchyardError');
}

async function rejected(promise: Promise<unknown>): Promise<SwitchyardError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (isSwitchyardError(error)) return error;
  throw new Error(`expected a SwitchyardError, got ${String(error)}`);
}

describe('defaultPolicy', () => {
  it('has the documented defaults and is deeply frozen', () => {
    expect(defaultPolicy.defaults).toEqual({
      deadlineMs: undefined,
      backoff: { strategy: 'exponential', baseMs: 100, factor: 2, capMs: 30_000 },
      jitter: 'full',
      retryAfter: { honour: true, capMs: 60_000 },
      concurrency: 16,
    });
    expect(defaultPolicy.run.deadlineMs).toBeUndefined();
    expect(defaultPolicy.classification.maxDepth).toBe(8);
    expect(Object.isFrozen(defaultPolicy.defaults.backoff)).toBe(true);
    expect(Object.isFrozen(defaultPolicy.classification.retryableCodes)).toBe(true);
  });
});

describe('resolvePolicy', () => {
  it('returns the defaults for no input', () => {
    expect(resolvePolicy()).toEqual(defaultPolicy);
  });

  it('merges backoff and retryAfter field by field over the defaults', () => {
    const policy = resolvePolicy({
      defaults: { backoff: { baseMs: 5 }, retryAfter: { capMs: 1000 }, deadlineMs: 2000 },
      run: { deadlineMs: 60_000 },
      classification: { retryTimeouts: false },
    });
    expect(policy.defaults.backoff).toEqual({ strategy: 'exponential', baseMs: 5, factor: 2, capMs: 30_000 });
    expect(policy.defaults.retryAfter).toEqual({ honour: true, capMs: 1000 });
    expect(policy.defaults.deadlineMs).toBe(2000);
    expect(policy.defaults.jitter).toBe('full');
    expect(policy.run.deadlineMs).toBe(60_000);
    expect(policy.classification.retryTimeouts).toBe(false);
    expect(policy.classification.retry5xx).toBe(true);
    expect(Object.isFrozen(policy.defaults)).toBe(true);
  });

  it('gives decorrelated its own factor of 3 unless one is written', () => {
    const policy = resolvePolicy({
      defaults: { backoff: { strategy: 'decorrelated' } },
      placements: { a: { backoff: { strategy: 'decorrelated', factor: 4 } }, b: { backoff: { baseMs: 7 } } },
    });
    expect(policy.defaults.backoff.factor).toBe(3);
    expect(timingFor(policy, DAG, 'a').backoff.factor).toBe(4);
    expect(timingFor(policy, DAG, 'b').backoff).toMatchObject({
      strategy: 'decorrelated',
      factor: 3,
      baseMs: 7,
    });
    expect(resolvePolicy({ defaults: { backoff: { strategy: 'constant' } } }).defaults.backoff.factor).toBe(
      2,
    );
  });

  it('does not let explicit undefined fields erase defaults', () => {
    const input = { defaults: { backoff: { baseMs: undefined, capMs: 50 } } } as unknown as PolicyInput;
    expect(resolvePolicy(input).defaults.backoff.baseMs).toBe(100);
  });

  it('rejects bad input with every problem and its pointer', () => {
    const bad = {
      defaults: { jitter: 'sometimes', backoff: { baseMs: -1, factr: 2 } },
      placements: { compose: { concurrency: 0 } },
      run: { deadlineMs: 'soon' },
      extra: true,
    } as unknown as PolicyInput;
    const error = thrown(() => resolvePolicy(bad));
    expect(error.code).toBe('E_POLICY');
    const pointers = error.problems.map((p) => p.pointer).sort();
    expect(pointers).toEqual([
      '/defaults/backoff/baseMs',
      '/defaults/backoff/factr',
      '/defaults/jitter',
      '/extra',
      '/placements/compose/concurrency',
      '/run/deadlineMs',
    ]);
    expect(error.problems.every((p) => p.code === 'E_POLICY')).toBe(true);
    expect(error.message).toContain('6 problems');
    expect(error.message).toContain('/defaults/jitter must be one of "none", "full", "equal"');
    expect(error.message).toContain(
      '/defaults/backoff/factr is not a policy field — remove it or use one of: strategy, baseMs, factor, capMs',
    );
    expect(error.message).not.toContain('\n');
  });
});

describe('timingFor', () => {
  const policy = resolvePolicy({
    defaults: { deadlineMs: 5000, backoff: { baseMs: 100, capMs: 10_000 } },
    nodes: { 'urn:node:compose': { deadlineMs: 20_000, backoff: { baseMs: 500 }, jitter: 'none' } },
    placements: {
      compose: { backoff: { capMs: 4000 }, concurrency: 2 },
      [`${DAG}#compose`]: { jitter: 'equal', retryAfter: { capMs: 15_000 } },
      salvage: { deadlineMs: undefined },
    },
  });

  it('layers defaults < node < placement key < dag#key', () => {
    expect(timingFor(policy, DAG, 'compose', 'urn:node:compose')).toEqual({
      deadlineMs: 20_000,
      backoff: { strategy: 'exponential', baseMs: 500, factor: 2, capMs: 4000 },
      jitter: 'equal',
      retryAfter: { honour: true, capMs: 15_000 },
      concurrency: 2,
    });
  });

  it('applies a dag#key override only to that document', () => {
    const other = timingFor(policy, 'urn:other', 'compose', 'urn:node:compose');
    expect(other.jitter).toBe('none');
    expect(other.retryAfter.capMs).toBe(60_000);
  });

  it('falls back to the defaults and lets an override remove a deadline', () => {
    expect(timingFor(policy, DAG, 'validate')).toEqual(policy.defaults);
    expect(timingFor(policy, DAG, 'salvage').deadlineMs).toBeUndefined();
  });

  it('returns the same cached object for the same lookup', () => {
    const a = timingFor(policy, DAG, 'compose', 'urn:node:compose');
    expect(timingFor(policy, DAG, 'compose', 'urn:node:compose')).toBe(a);
    expect(timingFor(policy, DAG, 'compose')).not.toBe(a);
    expect(timingFor(resolvePolicy(), DAG, 'compose')).toEqual(defaultPolicy.defaults);
  });
});

describe('loadPolicyFile', () => {
  it('loads the fast fixture', async () => {
    const policy = await loadPolicyFile(fixture('fast.json'));
    expect(policy.defaults.backoff).toEqual({ strategy: 'exponential', baseMs: 1, factor: 2, capMs: 8 });
    expect(policy.run.deadlineMs).toBe(10_000);
  });

  it('reads null deadlines as none', async () => {
    const policy = await loadPolicyFile(fixture('layered.json'));
    expect(policy.run.deadlineMs).toBeUndefined();
    expect(timingFor(policy, DAG, 'salvage').deadlineMs).toBeUndefined();
    expect(timingFor(policy, DAG, 'compose', 'urn:switchyard:node:compose')).toMatchObject({
      deadlineMs: 20_000,
      jitter: 'equal',
      backoff: { baseMs: 500, capMs: 4000 },
    });
    expect(policy.classification.retryableStatuses).toEqual([408, 429]);
  });

  it('reports a missing file as E_FILE_NOT_FOUND', async () => {
    const error = await rejected(loadPolicyFile(fixture('does-not-exist.json')));
    expect(error.code).toBe('E_FILE_NOT_FOUND');
    expect(error.message).toContain('does-not-exist.json');
  });

  it('reports malformed JSON with line and column', async () => {
    const error = await rejected(loadPolicyFile(fixture('malformed.json')));
    expect(error.code).toBe('E_POLICY');
    expect(error.problems[0]).toMatchObject({ code: 'E_JSON_SYNTAX', line: 4, column: 3 });
    expect(error.message).toContain('4:3');
  });

  it('reports every schema violation with pointer, line and column', async () => {
    const error = await rejected(loadPolicyFile(fixture('invalid.json')));
    expect(error.code).toBe('E_POLICY');
    expect(error.problems).toHaveLength(6);
    expect(error.problems.find((p) => p.pointer === '/defaults/jitter')).toMatchObject({
      line: 3,
      column: 5,
    });
    expect(error.problems.find((p) => p.pointer === '/extra')).toMatchObject({ line: 10, column: 3 });
    expect(error.problems.every((p) => p.file === fixture('invalid.json'))).toBe(true);
  });

  it('loads every *.policy.json under dags/', async () => {
    const files = readdirSync(dagsDir).filter((f) => f.endsWith('.policy.json'));
    expect(files).toContain('compose-validate.policy.json');
    for (const file of files) await loadPolicyFile(`${dagsDir}${file}`);
  });

  it('gives every task placement of compose-validate a deadline, with a run deadline', async () => {
    const policy = await loadPolicyFile(`${dagsDir}compose-validate.policy.json`);
    for (const key of ['compose', 'validate', 'salvage']) {
      expect(timingFor(policy, DAG, key).deadlineMs, key).toBeGreaterThan(0);
    }
    expect(policy.run.deadlineMs).toBeGreaterThan(0);
    expect(policy.defaults).toMatchObject({ jitter: 'full', backoff: { strategy: 'exponential' } });
  });
});

describe('writtenConcurrency', () => {
  const dag = 'urn:test:dag';
  it('is undefined where only the built-in default applies', () => {
    expect(writtenConcurrency(defaultPolicy, dag, 'fetch', 'urn:test:fetch')).toBeUndefined();
    const other = resolvePolicy({ defaults: { jitter: 'none' }, placements: { other: { concurrency: 2 } } });
    expect(writtenConcurrency(other, dag, 'fetch', 'urn:test:fetch')).toBeUndefined();
    expect(timingFor(other, dag, 'fetch', 'urn:test:fetch').concurrency).toBe(16);
  });

  it('takes the layers in the order timingFor merges them', () => {
    const policy = resolvePolicy({
      defaults: { concurrency: 16 },
      nodes: { 'urn:test:fetch': { concurrency: 8 } },
      placements: { fetch: { concurrency: 4 }, [`${dag}#fetch`]: { concurrency: 2 }, toString: {} },
    });
    expect(writtenConcurrency(policy, dag, 'fetch', 'urn:test:fetch')).toBe(2);
    expect(writtenConcurrency(policy, 'urn:test:other', 'fetch', 'urn:test:fetch')).toBe(4);
    expect(writtenConcurrency(policy, dag, 'parse', 'urn:test:fetch')).toBe(8);
    // A written default counts, even when it equals the built-in one; a placement named toString has none.
    expect(writtenConcurrency(policy, dag, 'toString', 'urn:test:parse')).toBe(16);
    expect(writtenConcurrency(policy, dag, 'toString')).toBe(16);
  });

  it('survives a round trip through JSON', () => {
    const written = resolvePolicy({ defaults: { concurrency: 5 } });
    expect(writtenConcurrency(resolvePolicy(JSON.parse(JSON.stringify(written))), dag, 'x')).toBe(5);
  });
});
