/** Item timelines from run events: every kind of entry the run page shows, with its words and its wait. */
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/runtime/events.ts';
import { itemTimelines } from '../../src/ui/timeline.ts';

const base = { runId: 'r', dag: 'urn:d' };
const events: RunEvent[] = [
  { ...base, seq: 0, time: 1000, type: 'run.start', hash: 'h', items: 2 },
  { ...base, seq: 1, time: 1001, type: 'placement.start', item: '1', placement: 'call', visit: 1 },
  {
    ...base,
    seq: 2,
    time: 1501,
    type: 'placement.end',
    item: '1',
    placement: 'call',
    output: 'retry',
    durationMs: 500,
    error: { code: 'E_TIMEOUT', message: 'deadline of 500 ms', retryable: true, kind: 'timeout' },
  },
  {
    ...base,
    seq: 3,
    time: 1501,
    type: 'route',
    item: '1',
    from: 'call',
    output: 'retry',
    to: 'call',
    kind: 'retry',
  },
  {
    ...base,
    seq: 4,
    time: 1501,
    type: 'retry.scheduled',
    item: '1',
    from: 'call',
    output: 'retry',
    to: 'call',
    budget: 'calls',
    attempt: 1,
    delayMs: 3000,
    delaySource: 'retry-after',
    reason: '429',
  },
  {
    ...base,
    seq: 5,
    time: 4600,
    type: 'budget.exhausted',
    item: '1',
    from: 'call',
    budget: 'calls',
    to: 'fallback',
    why: 'deadline',
  },
  {
    ...base,
    seq: 6,
    time: 4600,
    type: 'salvage',
    item: '1',
    from: 'call',
    to: 'fallback',
    reason: 'cached answer',
  },
  { ...base, seq: 7, time: 4700, type: 'item.end', item: '1', terminal: 'done', outcome: 'completed' },
  {
    ...base,
    seq: 8,
    time: 4800,
    type: 'item.failed',
    item: '2',
    placement: 'call',
    error: { code: 'E_NODE_ERROR', message: 'boom', retryable: false },
  },
];

describe('itemTimelines', () => {
  it('gives each item its entries, in order, timed from the run start', () => {
    const byItem = itemTimelines(events);
    expect([...byItem.keys()]).toEqual(['1', '2']);
    expect(byItem.get('1')?.map((e) => [e.atMs, e.kind, e.text])).toEqual([
      [1, 'placement', 'call starts (visit 1)'],
      [501, 'deadline', 'call: deadline fired after 500 ms → retry: deadline of 500 ms'],
      [501, 'retry', 'retry call (calls 1) after a Retry-After wait of 3.0 s: 429'],
      [3600, 'exhausted', "budget calls exhausted (the wait would not fit the run's deadline) → fallback"],
      [3600, 'salvage', 'salvaged: call → fallback: cached answer'],
      [3700, 'ended', 'ended at done (completed)'],
    ]);
    expect(byItem.get('1')?.[2]).toMatchObject({ waitMs: 3000, waitReason: 'retry-after' });
    expect(byItem.get('2')?.map((e) => e.text)).toEqual(['failed at call: E_NODE_ERROR: boom']);
  });
});
