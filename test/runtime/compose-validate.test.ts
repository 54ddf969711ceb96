import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { httpError, loadDag, never, recorder, scripted, virtualClock } from './helpers.ts';

const IRI = 'urn:switchyard:node:';
const policy = {
  defaults: {
    backoff: { strategy: 'constant' as const, baseMs: 100, capMs: 1_000 },
    jitter: 'none' as const,
  },
  placements: { compose: { deadlineMs: 5_000 } },
};

/** Sets the item's draft and returns `output`. */
function draft(item: { data: Record<string, unknown> }, text: string, output: string): string {
  item.data.draft = text;
  return output;
}

function nodes(
  compose: Parameters<typeof scripted>[2],
  validate: Parameters<typeof scripted>[2],
  salvage?: Parameters<typeof scripted>[2],
) {
  return {
    compose: scripted(`${IRI}compose`, ['drafted'], compose),
    validate: scripted(`${IRI}validate`, ['valid', 'invalid'], validate),
    salvage: scripted(
      `${IRI}salvage`,
      ['salvaged'],
      salvage ?? [(item) => draft(item, 'fallback', 'salvaged')],
    ),
  };
}

async function run(n: ReturnType<typeof nodes>) {
  const dag = await loadDag('compose-validate');
  const clock = virtualClock();
  const dispatcher = createDispatcher({ nodes: [n.compose, n.validate, n.salvage], policy, clock });
  const rec = recorder();
  const result = await dispatcher.run(dag, { topic: 'whales' }, { onEvent: rec.onEvent });
  return { result, rec, clock };
}

describe('compose-validate end to end', () => {
  it('answers on the happy path', async () => {
    const n = nodes([(item) => draft(item, 'ok', 'drafted')], [() => 'valid']);
    const { result, rec } = await run(n);
    expect(result.status).toBe('completed');
    expect(result.items).toMatchObject([
      { id: '1', terminal: 'done', outcome: 'completed', data: { topic: 'whales', draft: 'ok' } },
    ]);
    expect(result.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rec.of('run.start')[0]?.hash).toBe(result.hash);
    expect(rec.events.map((e) => e.seq)).toEqual(rec.events.map((_, i) => i));
  });

  it('salvages after the validator rejects three times', async () => {
    const n = nodes([() => 'drafted'], [() => ({ output: 'invalid', reason: 'too short' })]);
    const { result, rec } = await run(n);
    expect(result.items[0]).toMatchObject({ terminal: 'salvaged', data: { draft: 'fallback' } });
    expect(n.compose.calls).toBe(4);
    expect(n.validate.calls).toBe(4);
    expect(result.items[0]?.state.budgets).toEqual({ compose: 3 });
    expect(rec.of('retry.scheduled').map((e) => [e.attempt, e.reason])).toEqual([
      [1, 'too short'],
      [2, 'too short'],
      [3, 'too short'],
    ]);
    expect(rec.of('budget.exhausted')).toMatchObject([
      { from: 'validate', budget: 'compose', to: 'salvage', why: 'spent' },
    ]);
    expect(rec.of('salvage')).toMatchObject([{ from: 'validate', to: 'salvage' }]);
    expect(result.stats).toMatchObject({
      retries: 3,
      exhausted: 1,
      salvages: 1,
      byTerminal: { salvaged: 1 },
    });
  });

  it('retries a 429 after its Retry-After', async () => {
    const n = nodes(
      [() => Promise.reject(httpError(429, { 'retry-after': '2' })), () => 'drafted'],
      [() => 'valid'],
    );
    const { result, rec } = await run(n);
    expect(result.items[0]?.terminal).toBe('done');
    expect(rec.of('retry.scheduled')).toMatchObject([
      { budget: 'transient', delayMs: 2000, delaySource: 'retry-after', reason: 'HTTP 429' },
    ]);
    expect(rec.of('placement.start').map((e) => [e.placement, e.time])).toEqual([
      ['compose', 0],
      ['compose', 2000],
      ['validate', 2000],
    ]);
    expect(rec.of('placement.end')[0]).toMatchObject({
      output: 'retry',
      error: { status: 429, retryable: true, kind: 'http' },
    });
  });

  it('takes the error route (salvage) on a 400', async () => {
    const n = nodes([() => Promise.reject(httpError(400))], [() => 'valid']);
    const { result, rec } = await run(n);
    expect(result.items[0]?.terminal).toBe('salvaged');
    expect(rec.of('route')[0]).toMatchObject({
      from: 'compose',
      output: 'error',
      to: 'salvage',
      kind: 'salvage',
    });
    expect(result.stats.retries).toBe(0);
  });

  it('cuts a hung compose at its deadline and retries it', async () => {
    const n = nodes([() => never(), () => 'drafted'], [() => 'valid']);
    const { result, rec } = await run(n);
    expect(result.items[0]?.terminal).toBe('done');
    expect(rec.of('placement.end')[0]).toMatchObject({
      placement: 'compose',
      output: 'retry',
      durationMs: 5000,
      error: { code: 'E_DEADLINE', kind: 'timeout' },
    });
    expect(rec.of('placement.start')[1]).toMatchObject({ placement: 'compose', time: 5100, visit: 2 });
  });

  it('ends at the failed terminal when the salvage throws', async () => {
    const n = nodes(
      [() => Promise.reject(httpError(400))],
      [() => 'valid'],
      [
        () => {
          throw new Error('no fallback');
        },
      ],
    );
    const { result } = await run(n);
    expect(result.status).toBe('failed');
    expect(result.items[0]).toMatchObject({ terminal: 'failed', outcome: 'failed' });
  });

  it('reports an output without a route as E_UNROUTED_OUTPUT', async () => {
    const n = nodes([() => 'mystery'], [() => 'valid']);
    const { result, rec } = await run(n);
    expect(result.items).toEqual([]);
    expect(result.failures).toMatchObject([
      { id: '1', placement: 'compose', error: { code: 'E_UNROUTED_OUTPUT' } },
    ]);
    expect(result.failures[0]?.state.data).toEqual({ topic: 'whales' });
    expect(rec.of('item.failed')).toHaveLength(1);
    expect(result.status).toBe('failed');
  });
});
