import { describe, expect, it } from 'vitest';
import { closedAt, RecordedGates } from '../../src/gates/recorded.ts';
import { resolveRecordedPolicy } from '../../src/policy/recorded.ts';
import { resolvePolicy } from '../../src/policy/resolve.ts';

const T = 1_767_268_800_000;

function fold(events: readonly Record<string, unknown>[]) {
  const gates = new RecordedGates();
  for (const event of events) gates.add(String(event.type), event);
  return gates.list();
}

describe('the gate keys a run recorded', () => {
  it('keeps the latest closing of each key, until a gate.opened after it', () => {
    const keys = fold([
      { type: 'gate.wait', gate: 'api', key: 'api:a', why: 'rate', item: '1' },
      { type: 'gate.closed', gate: 'api', key: 'api:b', untilMs: T + 1000, reason: 'HTTP 503', hintMs: 1000 },
      { type: 'gate.closed', gate: 'api', key: 'api:a', untilMs: T + 5000, reason: 'HTTP 429' },
      { type: 'gate.opened', gate: 'api', key: 'api:b', closedMs: 1000 },
      {
        type: 'gate.closed',
        gate: 'api',
        key: 'api:a',
        untilMs: T + 60_000,
        reason: 'HTTP 429',
        hintMs: 60_000,
      },
      { type: 'placement.start', item: '2' },
    ]);
    expect(keys).toEqual([
      { gate: 'api', key: 'api:a', closedUntil: T + 60_000, reason: 'HTTP 429', hintMs: 60_000 },
      { gate: 'api', key: 'api:b', closedUntil: 0, reason: 'HTTP 503', hintMs: 1000, closedMs: 1000 },
    ]);
    expect(keys.map((k) => closedAt(k, T + 59_999))).toEqual([true, false]);
    expect(keys.map((k) => closedAt(k, T + 60_000))).toEqual([false, false]);
  });

  it('names a key that only had waits as open, and skips fields of the wrong kind', () => {
    expect(
      fold([
        { type: 'gate.wait', gate: 'db', key: 'db', why: 'concurrency' },
        { type: 'gate.closed', gate: 'db', key: 'db', untilMs: 'soon', reason: 'HTTP 429' },
        { type: 'gate.closed', gate: 7, key: 'db', untilMs: T },
        { type: 'gate.opened', key: 'db' },
      ]),
    ).toEqual([{ gate: 'db', key: 'db', closedUntil: 0 }]);
  });
});

describe('a recorded policy with gates', () => {
  it('resolves again to the policy it was recorded from', () => {
    const policy = resolvePolicy({
      gates: { api: { placements: ['call'], rate: { limit: 2 }, keys: '^gpt-.+$', maxClosedMs: 30_000 } },
    });
    const recorded = JSON.parse(JSON.stringify(policy)) as unknown;
    expect(() => resolvePolicy(recorded as never)).toThrow(/gates\/api\/name is not a policy field/);
    expect(JSON.parse(JSON.stringify(resolveRecordedPolicy(recorded)))).toEqual(recorded);
  });

  it('still refuses what is not a policy', () => {
    expect(() => resolveRecordedPolicy({ gates: { api: { name: 'other' } } })).toThrow(/E_POLICY|name/);
    expect(() => resolveRecordedPolicy({ gates: { api: { rate: { limit: 0 } } } })).toThrow();
  });
});
