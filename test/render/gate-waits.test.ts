/**
 * Waits at gates in a rendered trace: summed per placement from real runs through a dispatcher's gates on
 * the virtual clock, and drawn on the placement's node as a retry edge says its waits, with the gate's key.
 */
import { describe, expect, it } from 'vitest';
import type { PolicyInput } from '../../src/policy/types.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { toMermaid } from '../../src/render/mermaid.ts';
import { parseTrace, summariseTrace } from '../../src/render/trace.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { callChain } from '../gates/call-chain.ts';

const IRI = 'urn:test:gate-trace';
const chain = callChain(IRI);

/** Runs `items` items through gate `api` (a pace of 10 a second), the first call answering 429 with a 2 s Retry-After. */
async function gatedRun(items: number, signal?: AbortSignal) {
  const clock = createVirtualClock({ auto: signal === undefined });
  let calls = 0;
  const node = defineNode({
    id: 'urn:test:call',
    outputs: ['ok'],
    run: () => {
      calls += 1;
      if (calls === 1) throw Object.assign(new Error('429'), { status: 429, retryAfter: 2000 });
      return 'ok';
    },
  });
  const policy = {
    defaults: { jitter: 'none' },
    gates: { api: { placements: ['call'], rate: { limit: 10, periodMs: 1000 } } },
  } as PolicyInput;
  const events: RunEvent[] = [];
  const running = createDispatcher({ nodes: [node], clock, policy }).run(
    chain,
    {},
    {
      items: Array.from({ length: items }, () => ({})),
      onEvent: (e) => events.push(e),
      ...(signal === undefined ? {} : { signal }),
    },
  );
  return { clock, events, running };
}

describe('waits at gates in a trace', () => {
  it('sums each wait from its first gate.wait to its gate.passed, per placement and key', async () => {
    const { events, running } = await gatedRun(5);
    await running;
    // Items 2-5 waited for the pace at 0, then for the closing until 2000, then for the pace again: they
    // went through at 2000, 2100, 2200, 2300; item 1's retry waited for the pace from 2000 to 2400.
    const passed = events.flatMap((e) => (e.type === 'gate.passed' ? [[e.item, e.time, e.waitedMs]] : []));
    expect(passed).toEqual([
      ['2', 2000, 2000],
      ['3', 2100, 2100],
      ['4', 2200, 2200],
      ['5', 2300, 2300],
      ['1', 2400, 400],
    ]);
    // Read back as a trace file is.
    const trace = summariseTrace(parseTrace(events.map((e) => JSON.stringify(e)).join('\n')));
    expect(trace.dags.get(IRI)?.gateWaits.get('call')).toEqual({
      placement: 'call',
      keys: ['api'],
      waitsMs: [2000, 2100, 2200, 2300, 400],
      totalMs: 9000,
      pending: 0,
    });
  });

  it('draws the waits on the placement, with the gate, as a retry edge draws its waits', async () => {
    const { events, running } = await gatedRun(5);
    await running;
    const text = toMermaid(chain, { trace: summariseTrace(events) });
    expect(text).toContain('["call<br/>task · ×6<br/>gate api · waited 9000 ms"]');
    // The retry edge says its wait as before.
    expect(text).toContain('waited 2000 ms');
    // Without a trace, or with one in which nobody waited, the node has no such line.
    expect(toMermaid(chain)).not.toContain('gate api');
  });

  it('counts the items still waiting where the trace ends, and cuts the waits a run end stops', async () => {
    const abort = new AbortController();
    const { clock, events, running } = await gatedRun(3, abort.signal);
    // Items 2 and 3 wait at the gate, closed until 2000; the clock never gets there.
    await expect
      .poll(() => events.filter((e) => e.type === 'gate.wait' && e.why === 'closed').length)
      .toBe(2);
    await clock.advance(500);
    const during = summariseTrace(events).dags.get(IRI)?.gateWaits.get('call');
    expect(during).toEqual({ placement: 'call', keys: ['api'], waitsMs: [], totalMs: 0, pending: 2 });
    expect(toMermaid(chain, { trace: summariseTrace(events) })).toContain('gate api · 2 waiting');
    abort.abort();
    await running;
    const after = summariseTrace(events).dags.get(IRI)?.gateWaits.get('call');
    expect(after).toEqual({
      placement: 'call',
      keys: ['api'],
      waitsMs: [500, 500],
      totalMs: 1000,
      pending: 0,
    });
  });
});

describe('gate events in a trace file', () => {
  it('refuses a gate event without the fields the diagram and the viewer read, naming the line', () => {
    const line = (fields: Record<string, unknown>) =>
      JSON.stringify({ seq: 1, time: 0, runId: 'r', ...fields });
    const closed = { type: 'gate.closed', gate: 'api', key: 'api', reason: 'HTTP 429' };
    expect(() => parseTrace(line(closed), 'run.jsonl')).toThrow(
      "run.jsonl:1: 'gate.closed' event lacks the number field 'untilMs'",
    );
    expect(() => parseTrace(line({ ...closed, untilMs: 5 }), 'run.jsonl')).not.toThrow();
    expect(() =>
      parseTrace(
        line({ type: 'gate.wait', item: '1', dag: 'd', placement: 'call', gate: 'api' }),
        'run.jsonl',
      ),
    ).toThrow("run.jsonl:1: 'gate.wait' event lacks the string field 'key'");
  });
});
