/** The words of the gate entries of timelines: an item's waits at a gate, and a gate key's closings. */
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/runtime/events.ts';
import { gateTimelines, itemTimelines } from '../../src/ui/timeline.ts';

const base = { runId: 'r', dag: 'urn:d' };
const at = { gate: 'openai', key: 'openai:gpt-4o-mini' };
const events: RunEvent[] = [
  { ...base, seq: 0, time: 1000, type: 'run.start', hash: 'h', items: 2 },
  { ...base, ...at, seq: 1, time: 1000, type: 'gate.wait', item: '1', placement: 'call', why: 'rate' },
  { ...base, ...at, seq: 2, time: 1000, type: 'gate.wait', item: '2', placement: 'call', why: 'concurrency' },
  // A closing another run's item caused: no item of this run.
  { ...base, ...at, seq: 3, time: 1200, type: 'gate.closed', untilMs: 5000, reason: 'HTTP 503' },
  {
    ...base,
    ...at,
    seq: 4,
    time: 1200,
    type: 'gate.wait',
    item: '1',
    placement: 'call',
    why: 'closed',
    untilMs: 5000,
  },
  { ...base, ...at, seq: 5, time: 5000, type: 'gate.opened', closedMs: 4000 },
  { ...base, ...at, seq: 6, time: 5000, type: 'gate.passed', item: '1', placement: 'call', waitedMs: 4000 },
];

describe('gate entries', () => {
  it('say why an item waits at a gate key, and when it went through', () => {
    expect(
      itemTimelines(events)
        .get('1')
        ?.map((e) => [e.atMs, e.kind, e.text]),
    ).toEqual([
      [0, 'gate', 'waits at gate openai:gpt-4o-mini: its rate is used up'],
      [200, 'gate', 'waits at gate openai:gpt-4o-mini: closed until 1970-01-01T00:00:05.000Z'],
      [4000, 'gate', 'through gate openai:gpt-4o-mini after 4.0 s'],
    ]);
    expect(
      itemTimelines(events)
        .get('2')
        ?.map((e) => e.text),
    ).toEqual(['waits at gate openai:gpt-4o-mini: its concurrency is full']);
  });

  it('give each key its closings, by whom, until when and why, and its reopenings', () => {
    const byKey = gateTimelines(events);
    expect([...byKey.keys()]).toEqual(['openai:gpt-4o-mini']);
    expect(byKey.get('openai:gpt-4o-mini')).toEqual([
      {
        seq: 3,
        atMs: 200,
        kind: 'closed',
        gate: 'openai:gpt-4o-mini',
        untilMs: 5000,
        text: 'closed until 1970-01-01T00:00:05.000Z (HTTP 503, back-off) by an execution of another run',
      },
      { seq: 5, atMs: 4000, kind: 'opened', gate: 'openai:gpt-4o-mini', text: 'reopened after 4.0 s closed' },
    ]);
  });
});
