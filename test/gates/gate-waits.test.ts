/**
 * The waits at gates read back from a run's events: a wait begins at an item's first `gate.wait`, goes on
 * through a change of reason, and ends at its `gate.passed` or any other event of the item; each key's
 * counts follow; and the progress phrase over several keys.
 */
import { describe, expect, it } from 'vitest';
import { gatePhrase } from '../../src/cli/progress-gates.ts';
import { GateWaitBook } from '../../src/gates/gate-waits.ts';
import type { RunEvent } from '../../src/runtime/events.ts';

const base = { runId: 'r', dag: 'urn:d', placement: 'call' };
let seq = 0;
const wait = (
  item: string,
  key: string,
  why: 'closed' | 'rate' | 'concurrency',
  time: number,
  untilMs?: number,
) =>
  ({
    ...base,
    seq: seq++,
    time,
    type: 'gate.wait',
    item,
    gate: key.split(':')[0],
    key,
    why,
    ...(untilMs === undefined ? {} : { untilMs }),
  }) as RunEvent;

describe('GateWaitBook', () => {
  it('keeps a wait from its first gate.wait to its end, and counts each key by reason', () => {
    const book = new GateWaitBook();
    book.see(wait('1', 'api', 'rate', 0));
    book.see(wait('2', 'api', 'rate', 10));
    book.see({
      ...base,
      seq: seq++,
      time: 20,
      type: 'gate.closed',
      gate: 'api',
      key: 'api',
      untilMs: 5020,
      reason: 'HTTP 429',
      hintMs: 5000,
    });
    book.see(wait('1', 'api', 'closed', 20, 5020));
    expect(book.waitOf('1')).toMatchObject({ why: 'closed', untilMs: 5020, since: 0 });
    expect(book.keys().get('api')).toEqual({
      gate: 'api',
      key: 'api',
      waiting: 2,
      closed: 1,
      rate: 1,
      concurrency: 0,
      untilMs: 5020,
    });
    const passed = book.see({
      ...base,
      seq: seq++,
      time: 5020,
      type: 'gate.passed',
      item: '1',
      gate: 'api',
      key: 'api',
      waitedMs: 5020,
    });
    expect(passed).toMatchObject({ item: '1', since: 0, endedAt: 5020, passed: true });
    // Any other event of the item ends its wait too: here its deadline passed at the gate.
    const late = book.see({
      ...base,
      seq: seq++,
      time: 6000,
      type: 'placement.end',
      item: '2',
      output: 'timeout',
      durationMs: 5990,
    });
    expect(late).toMatchObject({ item: '2', since: 10, endedAt: 6000, passed: false });
    expect(book.waits()).toEqual([]);
    expect(book.keys().size).toBe(0);
    expect(book.closing('api')?.untilMs).toBe(5020);
    book.see({
      ...base,
      seq: seq++,
      time: 6000,
      type: 'gate.opened',
      gate: 'api',
      key: 'api',
      closedMs: 5000,
    });
    expect(book.closing('api')).toBeUndefined();
  });

  it('names the key most items wait at, and how many more wait at the others', () => {
    const book = new GateWaitBook();
    book.see(wait('1', 'openai:gpt-4o', 'concurrency', 0));
    for (const item of ['2', '3', '4']) book.see(wait(item, 'openai:o3', 'closed', 0, 14_000));
    book.see(wait('5', 'catalog', 'rate', 0));
    expect(gatePhrase(book, 0)).toBe(
      '3 items waiting at gate openai:o3 (closed, 14 s left), 2 more at 2 other gates',
    );
    expect(gatePhrase(book, 14_000)).toBe(
      '3 items waiting at gate openai:o3 (reopened), 2 more at 2 other gates',
    );
  });
});
