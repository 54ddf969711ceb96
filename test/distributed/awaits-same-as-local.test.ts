/**
 * The review document with a script of answers gives the same result and events over workers on a real
 * Redis as in one process: each item is answered when its `await.parked` event is heard (item 1 approved
 * with data, item 2 rejected, item 3 left to its deadline). Compared without what legitimately differs:
 * sequence numbers, times, durations, an await's wall-time deadline and how long it waited (the process
 * runs on a virtual clock, the workers on real time). Both runs have the same id, so the same tokens.
 * Every key is removed.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnswerReceipt, AnswerRequest } from '../../src/awaits/request.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import type { RunResult } from '../../src/runtime/run.ts';
import { draft, reviewPolicy } from '../awaits/fixtures.ts';
import { removeScratchKeys } from '../store/redis-scratch.ts';
import { review, startRig } from './fixtures/awaits.ts';

afterAll(removeScratchKeys);

/** Long enough for a follower to hear a park and answer it on a loaded machine; item 3 waits it out. */
const DEADLINE_MS = 2_000;

const items = [{ title: 'A' }, { title: 'B' }, { title: 'C' }];

/** The script: what each item is answered with, when its parking is heard. */
function scripted(runId: string, event: RunEvent): AnswerRequest | undefined {
  if (event.type !== 'await.parked') return undefined;
  const { token } = event;
  if (event.item === '1') return { runId, token, output: 'approved', data: { by: 'ed' } };
  if (event.item === '2') return { runId, token, output: 'rejected' };
  return undefined;
}

function comparable(result: RunResult, events: readonly RunEvent[]) {
  const { durationMs: _d, ...stats } = result.stats;
  return {
    status: result.status,
    items: result.items.map((i) => ({
      id: i.id,
      terminal: i.terminal,
      data: i.data,
      visits: { ...i.state.visits },
      trail: i.state.trail,
    })),
    failures: result.failures.map((f) => [f.id, f.placement, f.error.code]),
    stats: { ...stats, byTerminal: { ...stats.byTerminal } },
    events: events
      .map((event) => {
        const { seq: _s, time: _t, runId: _r, ...rest } = event as RunEvent & Record<string, unknown>;
        const { durationMs: _dm, deadlineAt: _da, waitedMs: _w, ...timeless } = rest;
        return JSON.stringify(timeless);
      })
      .sort(),
  };
}

describe('await placements, over workers and in one process', () => {
  it('give the same result and events for a script of answers', { timeout: 60_000 }, async () => {
    const runId = `same-${randomUUID()}`;
    const localEvents: RunEvent[] = [];
    const local = createDispatcher({
      nodes: [draft],
      policy: reviewPolicy(DEADLINE_MS),
      clock: createVirtualClock({ auto: true, wallStart: 1_000_000 }),
    });
    const given: Promise<AnswerReceipt>[] = [];
    const localResult = await local.run(
      review,
      {},
      {
        runId,
        items,
        onEvent: (event) => {
          localEvents.push(event);
          const request = scripted(runId, event);
          // Answered once the item waits, as a person who heard of it would.
          if (request !== undefined) queueMicrotask(() => given.push(local.answer(request)));
        },
      },
    );
    expect((await Promise.all(given)).map((r) => r.status)).toEqual(['taken', 'taken']);

    const rig = await startRig(DEADLINE_MS, { workers: 2 });
    try {
      const events: RunEvent[] = [];
      const answers: Promise<AnswerReceipt>[] = [];
      const result = await rig.dispatcher.run(
        review,
        {},
        {
          runId,
          items,
          onEvent: (event) => {
            events.push(event);
            const request = scripted(runId, event);
            if (request !== undefined) answers.push(rig.other.answer(request));
          },
        },
      );
      expect((await Promise.all(answers)).map((r) => r.status)).toEqual(['taken', 'taken']);
      expect(comparable(result, events)).toEqual(comparable(localResult, localEvents));
      expect(result.items.map((i) => i.terminal)).toEqual(['publish', 'drop', 'escalate']);
    } finally {
      await rig.close();
    }
  });
});
