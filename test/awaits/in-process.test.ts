import { describe, expect, it } from 'vitest';
import { answerToken } from '../../src/awaits/token.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { draft, reviewDag, reviewPolicy, slowDraft } from './fixtures.ts';

function setup(deadlineMs = 60_000) {
  const clock = createVirtualClock({ start: 0, wallStart: 1_000_000 });
  const dispatcher = createDispatcher({ nodes: [draft], clock, policy: reviewPolicy(deadlineMs) });
  return { clock, dispatcher };
}

/** Resolves once `events` holds an event of `type`, letting promise reactions run between looks. */
async function until(events: RunEvent[], type: string): Promise<RunEvent> {
  for (let i = 0; i < 1000; i++) {
    const found = events.find((e) => e.type === type);
    if (found !== undefined) return found;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`no ${type} event`);
}

describe('await placements in process', () => {
  it('routes by the answer and writes its data at into', async () => {
    const { clock, dispatcher } = setup();
    const events: RunEvent[] = [];
    const run = dispatcher.run(reviewDag(), { title: 'A' }, { runId: 'r1', onEvent: (e) => events.push(e) });
    const parked = (await until(events, 'await.parked')) as Extract<RunEvent, { type: 'await.parked' }>;
    expect(parked.token).toBe(
      answerToken({
        runId: 'r1',
        item: '1',
        dag: 'urn:switchyard:test:review',
        placement: 'review',
        visit: 1,
      }),
    );
    expect(parked.answers).toEqual(['approved', 'rejected']);
    expect(parked.deadlineAt).toBe(1_000_000 + 60_000);
    clock.advance(10_000);
    const receipt = await dispatcher.answer({
      runId: 'r1',
      token: parked.token,
      output: 'approved',
      data: { by: 'ed' },
    });
    expect(receipt.status).toBe('taken');
    const result = await run;
    expect(result.status).toBe('completed');
    expect(result.items[0]?.terminal).toBe('publish');
    expect(result.items[0]?.data).toEqual({ title: 'A', drafted: true, review: { by: 'ed' } });
    const answered = events.find((e) => e.type === 'await.answered');
    expect(answered).toMatchObject({ output: 'approved', waitedMs: 10_000 });
  });

  it('takes the deadline route at exactly the policy deadline', async () => {
    const { clock, dispatcher } = setup(45_000);
    const events: RunEvent[] = [];
    const run = dispatcher.run(reviewDag(), {}, { runId: 'r2', onEvent: (e) => events.push(e) });
    await until(events, 'await.parked');
    clock.advance(44_999);
    await new Promise((r) => setImmediate(r));
    expect(events.some((e) => e.type === 'await.expired')).toBe(false);
    clock.advance(1);
    const result = await run;
    expect(result.items[0]?.terminal).toBe('escalate');
    const expired = events.find((e) => e.type === 'await.expired');
    expect(expired).toMatchObject({ waitedMs: 45_000, time: 45_000 });
  });

  it('keeps an answer given before the item parks', async () => {
    const clock = createVirtualClock({ start: 0, wallStart: 1_000_000 });
    const dispatcher = createDispatcher({ nodes: [slowDraft(clock, 5_000)], clock, policy: reviewPolicy() });
    const events: RunEvent[] = [];
    const token = answerToken({
      runId: 'r3',
      item: '1',
      dag: 'urn:switchyard:test:review',
      placement: 'review',
      visit: 1,
    });
    const run = dispatcher.run(reviewDag(), {}, { runId: 'r3', onEvent: (e) => events.push(e) });
    // The draft is still being written when the answer comes.
    await until(events, 'placement.start');
    const receipt = await dispatcher.answer({ runId: 'r3', token, output: 'rejected' });
    expect(receipt.status).toBe('kept');
    clock.advance(5_000);
    const result = await run;
    expect(result.items[0]?.terminal).toBe('drop');
    expect(events.find((e) => e.type === 'await.answered')).toMatchObject({
      early: true,
      output: 'rejected',
    });
  });

  it('refuses a second answer, an unexpected output and data without into, changing nothing', async () => {
    const { dispatcher } = setup();
    const events: RunEvent[] = [];
    const run = dispatcher.run(reviewDag(), {}, { runId: 'r4', onEvent: (e) => events.push(e) });
    const parked = (await until(events, 'await.parked')) as Extract<RunEvent, { type: 'await.parked' }>;
    await expect(
      dispatcher.answer({ runId: 'r4', token: parked.token, output: 'maybe' }),
    ).rejects.toMatchObject({
      code: 'E_ANSWER',
      message: expect.stringContaining("'approved', 'rejected'"),
    });
    await expect(
      dispatcher.answer({ runId: 'r4', token: parked.token, output: 'approved', data: { when: new Date() } }),
    ).rejects.toMatchObject({ code: 'E_ANSWER' });
    await dispatcher.answer({ runId: 'r4', item: '1', placement: 'review', output: 'approved' });
    await expect(
      dispatcher.answer({ runId: 'r4', token: parked.token, output: 'rejected' }),
    ).rejects.toMatchObject({
      code: 'E_ALREADY_ANSWERED',
    });
    const result = await run;
    expect(result.items[0]?.terminal).toBe('publish');
  });
});

describe('admission of await placements', () => {
  it('refuses a run whose policy gives an await no deadline, naming it', async () => {
    const dispatcher = createDispatcher({ nodes: [draft] });
    await expect(dispatcher.run(reviewDag(), {})).rejects.toMatchObject({
      code: 'E_AWAIT_NO_DEADLINE',
      message: expect.stringContaining("'review'"),
    });
  });
});
