/**
 * Await placements at their edges, in process on a virtual clock: a revisit through a retry route parks
 * with a new token; data written over the whole item data; a run deadline shorter than the await's; an
 * abort while parked; an early answer that does not fit the placement its item parks at.
 */
import { describe, expect, it } from 'vitest';
import { answerToken } from '../../src/awaits/token.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { edgesPolicy, fanOfTwo, RETRY_MS, replacing, revisable, twoAwaits } from './edges-fixtures.ts';
import { draft, slowDraft } from './fixtures.ts';
import { parkedEvent, until } from './wait-for.ts';

const WALL = 1_000_000;

function setup(deadlineMs = 60_000, slow = 0) {
  const clock = createVirtualClock({ start: 0, wallStart: WALL });
  const node = slow > 0 ? slowDraft(clock, slow) : draft;
  const dispatcher = createDispatcher({ nodes: [node], clock, policy: edgesPolicy(deadlineMs) });
  return { clock, dispatcher };
}

describe('await placements at their edges', () => {
  it('parks a revisit through a retry route with a new token, budgeted', async () => {
    const { clock, dispatcher } = setup();
    const events: RunEvent[] = [];
    const run = dispatcher.run(revisable, { n: 1 }, { runId: 'v1', onEvent: (e) => events.push(e) });
    const token = (visit: number) =>
      answerToken({ runId: 'v1', item: '1', dag: revisable.id, placement: 'review', visit });
    const [first] = await until(events, parkedEvent);
    expect(first).toMatchObject({ visit: 1, token: token(1) });
    await dispatcher.answer({ runId: 'v1', token: token(1), output: 'revise', data: { note: 'shorter' } });
    await until(events, (e): e is RunEvent => e.type === 'route' && e.kind === 'retry');
    clock.advance(RETRY_MS);
    const second = (await until(events, parkedEvent, 2))[1];
    expect(second).toMatchObject({ visit: 2, token: token(2) });
    expect(token(2)).not.toBe(token(1));
    await expect(
      dispatcher.answer({ runId: 'v1', token: token(1), output: 'approved' }),
    ).rejects.toMatchObject({
      code: 'E_ALREADY_ANSWERED',
    });
    // By item and placement, the answer goes to the visit the item is parked at.
    const receipt = await dispatcher.answer({
      runId: 'v1',
      item: '1',
      placement: 'review',
      output: 'revise',
    });
    expect(receipt).toMatchObject({ status: 'taken', token: token(2) });
    await until(events, (e): e is RunEvent => e.type === 'route' && e.kind === 'retry', 2);
    clock.advance(RETRY_MS);
    // The budget allows two revisions; the third revise takes the exhaustion route.
    const third = (await until(events, parkedEvent, 3))[2];
    expect(third).toMatchObject({ visit: 3, token: token(3) });
    await dispatcher.answer({ runId: 'v1', token: token(3), output: 'revise', data: { note: 'no' } });
    const result = await run;
    expect(
      result.items.map((i) => [i.terminal, i.state.budgets, i.state.visits.draft, i.data.review]),
    ).toEqual([['drop', { rounds: 2 }, 3, { note: 'no' }]]);
  });

  it("writes an answer's data over the whole item data when into is '', refusing data that is no object", async () => {
    const { dispatcher } = setup();
    const events: RunEvent[] = [];
    const run = dispatcher.run(replacing, { old: true }, { runId: 'w1', onEvent: (e) => events.push(e) });
    const [parked] = await until(events, parkedEvent);
    for (const data of [['a'], 'text', null]) {
      await expect(
        dispatcher.answer({ runId: 'w1', token: parked?.token as string, output: 'approved', data }),
      ).rejects.toMatchObject({ code: 'E_ANSWER', message: expect.stringContaining('JSON object') });
    }
    await dispatcher.answer({
      runId: 'w1',
      token: parked?.token as string,
      output: 'approved',
      data: { fresh: 1 },
    });
    const result = await run;
    expect(result.items.map((i) => [i.terminal, i.data])).toEqual([['publish', { fresh: 1 }]]);
  });

  it('fails the run with E_RUN_DEADLINE when the run deadline passes before the await deadline', async () => {
    const { clock, dispatcher } = setup(60_000);
    const events: RunEvent[] = [];
    const run = dispatcher.run(
      revisable,
      {},
      { runId: 'rd', deadlineMs: 10_000, onEvent: (e) => events.push(e) },
    );
    await until(events, parkedEvent);
    clock.advance(10_000);
    const result = await run;
    expect(result.status).toBe('failed');
    expect(result.failures.map((f) => [f.id, f.placement, f.error.code])).toEqual([
      ['1', 'review', 'E_RUN_DEADLINE'],
    ]);
    expect(result.failures[0]?.error.message).toContain('waiting for answer');
    expect(events.some((e) => e.type === 'await.expired')).toBe(false);
  });

  it("reports an item aborted while parked as waiting for 'answer'", async () => {
    const { dispatcher } = setup();
    const stop = new AbortController();
    const events: RunEvent[] = [];
    const run = dispatcher.run(
      revisable,
      {},
      { runId: 'ab', signal: stop.signal, onEvent: (e) => events.push(e) },
    );
    await until(events, parkedEvent);
    stop.abort();
    const result = await run;
    expect(result.status).toBe('aborted');
    expect(result.aborted.map((a) => [a.item, a.placement, a.waitingFor])).toEqual([
      ['1', 'review', 'answer'],
    ]);
    await expect(
      dispatcher.answer({ runId: 'ab', item: '1', placement: 'review', output: 'approved' }),
    ).rejects.toThrow();
  });

  it('refuses at once an early answer for an input item that its own await does not expect', async () => {
    const { clock, dispatcher } = setup(60_000, 5_000);
    const events: RunEvent[] = [];
    // 'yes' is an answer of the second await, not of the first, whose token this is.
    const token = answerToken({ runId: 'mf', item: '1', dag: twoAwaits.id, placement: 'first', visit: 1 });
    const run = dispatcher.run(twoAwaits, {}, { runId: 'mf', onEvent: (e) => events.push(e) });
    await until(events, (e): e is RunEvent => e.type === 'placement.start');
    await expect(dispatcher.answer({ runId: 'mf', token, output: 'yes' })).rejects.toMatchObject({
      code: 'E_ANSWER',
      message: expect.stringContaining("'go', 'stop'"),
    });
    expect((await dispatcher.answer({ runId: 'mf', token, output: 'go' })).status).toBe('kept');
    clock.advance(5_000);
    const [, second] = await until(events, parkedEvent, 2);
    await dispatcher.answer({ runId: 'mf', token: second?.token as string, output: 'yes' });
    const result = await run;
    expect(result.items.map((i) => i.terminal)).toEqual(['yes']);
  });

  it('warns W_ANSWER_IGNORED when an early answer for a child does not fit the placement it parks at, and waits on', async () => {
    const clock = createVirtualClock({ start: 0, wallStart: WALL });
    const dispatcher = createDispatcher({
      nodes: [slowDraft(clock, 5_000)],
      clock,
      policy: edgesPolicy(60_000),
      library: { get: (id) => (id === twoAwaits.id ? twoAwaits : undefined) },
    });
    const events: RunEvent[] = [];
    // A scatter child's token cannot be told from the run's input: 'yes' fits an await of the run, so it is kept.
    const token = answerToken({ runId: 'mc', item: '1.0', dag: twoAwaits.id, placement: 'first', visit: 1 });
    const run = dispatcher.run(fanOfTwo, { list: ['a'] }, { runId: 'mc', onEvent: (e) => events.push(e) });
    await until(events, (e): e is RunEvent => e.type === 'placement.start' && e.placement === 'draft');
    expect((await dispatcher.answer({ runId: 'mc', token, output: 'yes' })).status).toBe('kept');
    clock.advance(5_000);
    const [parked] = await until(events, parkedEvent, 1);
    expect(parked).toMatchObject({ placement: 'first', token, item: '1.0' });
    expect(events.find((e) => e.type === 'warning')).toMatchObject({
      code: 'W_ANSWER_IGNORED',
      item: '1.0',
      placement: 'first',
      message: expect.stringContaining("'go', 'stop'"),
    });
    expect(events.some((e) => e.type === 'await.answered')).toBe(false);
    // The misfit was dropped: the item still takes an answer that fits.
    expect((await dispatcher.answer({ runId: 'mc', token, output: 'go' })).status).toBe('taken');
    const [, second] = await until(events, parkedEvent, 2);
    await dispatcher.answer({ runId: 'mc', token: second?.token as string, output: 'yes' });
    const result = await run;
    expect(result.items.map((i) => i.terminal)).toEqual(['done']);
  });
});
