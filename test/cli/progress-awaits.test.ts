/**
 * Progress while items wait for an answer at an await: how many wait where and when the first deadline
 * comes, said like the waits at a gate; gone once answered or expired. Counted from the events of real runs
 * on the virtual clock, whose wall clock is far from its run clock.
 */
import { describe, expect, it } from 'vitest';
import { progressState } from '../../src/cli/progress-state.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { draft, reviewDag, reviewPolicy } from '../awaits/fixtures.ts';

/** Resolves once `events` holds `count` events of `type`, letting promise reactions run between looks. */
async function until(events: RunEvent[], type: string, count = 1): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (events.filter((e) => e.type === type).length >= count) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`no ${type} event`);
}

function setup(deadlineMs: number) {
  const clock = createVirtualClock({ start: 0, wallStart: 1_800_000_000_000 });
  const dispatcher = createDispatcher({ nodes: [draft], clock, policy: reviewPolicy(deadlineMs) });
  const state = progressState('run r', 2);
  const events: RunEvent[] = [];
  const lines: string[] = [];
  const onEvent = (event: RunEvent) => {
    events.push(event);
    state.onEvent(event, clock.now(), clock.wallNow());
    lines.push(state.line(clock.now()));
  };
  return { clock, dispatcher, state, events, lines, onEvent };
}

describe('the progress line at an await', () => {
  it('counts the items waiting for an answer with the first deadline, and drops each one answered', async () => {
    const { clock, dispatcher, state, events, onEvent } = setup(3_600_000);
    const run = dispatcher.run(reviewDag(), {}, { runId: 'r', items: [{}, {}], onEvent });
    await until(events, 'await.parked', 2);
    expect(state.line(clock.now())).toBe(
      'run r: 0/2 items ended; 2 items waiting for an answer at review (deadline in 60 min)',
    );
    clock.advance(90_000);
    expect(state.line(clock.now())).toBe(
      'run r: 0/2 items ended; 2 items waiting for an answer at review (deadline in 59 min)',
    );
    const first = events.find((e) => e.type === 'await.parked' && e.item === '1') as Extract<
      RunEvent,
      { type: 'await.parked' }
    >;
    await dispatcher.answer({ runId: 'r', token: first.token, output: 'approved' });
    await until(events, 'item.end');
    expect(state.line(clock.now())).toBe(
      'run r: 1/2 items ended; 1 item waiting for an answer at review (deadline in 59 min)',
    );
    // The other item's deadline routes it: nothing waits any more.
    clock.advance(3_600_000);
    await run;
    expect(state.line(clock.now())).toBe('run r: 2/2 items ended');
    // A plain line is due whenever the count of items waiting for an answer moves.
    expect(state.headline()).toBeUndefined();
  });
});
