/**
 * Waits for answers in a rendered trace: summed per await placement from a real run on the virtual clock
 * (how long items waited, the answers they took, the deadlines that routed them, those still parked), and
 * drawn on the await's node as a gated node says its gate waits.
 */
import { describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { toMermaid } from '../../src/render/mermaid.ts';
import { parseTrace, summariseTrace } from '../../src/render/trace.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { draft, reviewDag, reviewPolicy } from '../awaits/fixtures.ts';

const IRI = 'urn:switchyard:test:review';

async function until(events: RunEvent[], type: string, count = 1): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (events.filter((e) => e.type === type).length >= count) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`no ${type} event`);
}

/** Three items park; item 1 is approved after 10 s, item 2 rejected after 20 s, item 3 left to its deadline. */
async function reviewRun() {
  const clock = createVirtualClock({ start: 0, wallStart: 1_000_000 });
  const dispatcher = createDispatcher({ nodes: [draft], clock, policy: reviewPolicy(60_000) });
  const events: RunEvent[] = [];
  const run = dispatcher.run(
    reviewDag(),
    {},
    { runId: 'r', items: [{}, {}, {}], onEvent: (e) => events.push(e) },
  );
  await until(events, 'await.parked', 3);
  const tokenOf = (item: string) =>
    (events.find((e) => e.type === 'await.parked' && e.item === item) as { token: string }).token;
  clock.advance(10_000);
  await dispatcher.answer({ runId: 'r', token: tokenOf('1'), output: 'approved' });
  await until(events, 'await.answered', 1);
  clock.advance(10_000);
  await dispatcher.answer({ runId: 'r', token: tokenOf('2'), output: 'rejected' });
  await until(events, 'await.answered', 2);
  const midway = [...events];
  clock.advance(40_000);
  await run;
  return { midway, events };
}

const asTrace = (events: readonly RunEvent[]) =>
  summariseTrace(parseTrace(events.map((e) => JSON.stringify(e)).join('\n'), 'run r'));

describe('waits for answers in a trace', () => {
  it('sums each await: time waited, answers taken, deadlines, and items still waiting', async () => {
    const { midway, events } = await reviewRun();
    const during = asTrace(midway).dags.get(IRI)?.awaitWaits.get('review');
    expect(during).toMatchObject({ waitsMs: [10_000, 20_000], totalMs: 30_000, expired: 0, pending: 1 });
    expect([...(during?.answered ?? [])]).toEqual([
      ['approved', 1],
      ['rejected', 1],
    ]);
    const after = asTrace(events).dags.get(IRI)?.awaitWaits.get('review');
    expect(after).toMatchObject({
      waitsMs: [10_000, 20_000, 60_000],
      totalMs: 90_000,
      expired: 1,
      pending: 0,
    });
  });

  it('draws the waits on the await node', async () => {
    const { midway, events } = await reviewRun();
    const line = (trace: ReturnType<typeof asTrace>) =>
      toMermaid(reviewDag(), { trace })
        .split('\n')
        .find((l) => l.includes('await ·'));
    expect(line(asTrace(midway))).toContain('waited 30.0 s · approved ×1 · rejected ×1 · 1 waiting');
    expect(line(asTrace(events))).toContain('waited 90.0 s · approved ×1 · rejected ×1 · expired ×1');
  });
});
