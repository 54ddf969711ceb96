/**
 * The gate scripts against the pure maths of `gcra.ts`: for random sequences of asks and closings at the
 * same wall times, the Redis key answers the start `reserve` gives and holds the state it gives, a closing
 * never shortens one in force, and a start past the asker's latest takes nothing. Also the concurrency
 * slots, a reservation a later closing covers, and the time to live of a key's state. Real Redis; every
 * key is removed.
 */
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import {
  askGate,
  closeGate,
  type GateAsk,
  giveBackStart,
  readGateState,
} from '../../src/distributed/gate-scripts.ts';
import { gateKeys } from '../../src/distributed/keys.ts';
import { closeKey, emissionInterval, OPEN_KEY, reserve } from '../../src/gates/gcra.ts';
import type { GateKeyState, GateRate } from '../../src/gates/types.ts';
import { propertySettings } from '../runtime/property-settings.ts';
import { removeScratchKeys, scratchPrefix, TEST_REDIS } from '../store/redis-scratch.ts';

const redis = new Redis(TEST_REDIS);
const PROPERTY = propertySettings(40);

afterAll(async () => {
  await redis.quit();
  await removeScratchKeys();
});

/** The ask of an execution under `rate` at `now`, with no concurrency and no reservation. */
function askOf(rate: GateRate | undefined, now: number, latest = Number.POSITIVE_INFINITY): GateAsk {
  return {
    now,
    latest,
    holder: '',
    limit: undefined,
    leaseMs: 1000,
    pace:
      rate === undefined
        ? undefined
        : { interval: emissionInterval(rate), tolerance: (rate.burst - 1) * emissionInterval(rate) },
    reserved: 0,
    run: 'run-1',
  };
}

const ops = fc.array(
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        ask: fc.integer({ min: 0, max: 400 }),
        latest: fc.option(fc.integer({ min: 0, max: 2000 }), { nil: undefined }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ close: fc.integer({ min: 1, max: 3000 }) }) },
  ),
  { minLength: 1, maxLength: 40 },
);

const rates = fc.option(
  fc.record({
    limit: fc.integer({ min: 1, max: 7 }),
    periodMs: fc.constantFrom(1000, 700, 60_000),
    burst: fc.integer({ min: 1, max: 4 }),
  }),
  { nil: undefined },
);

describe('the gate scripts follow the pure gate maths', () => {
  it('answer the start reserve gives and keep the state it gives, for any sequence of asks and closings', async () => {
    await fc.assert(
      fc.asyncProperty(rates, ops, async (rate, sequence) => {
        const keys = gateKeys(scratchPrefix(), 'api');
        let state: GateKeyState = OPEN_KEY;
        // A wall time far from 0, with fractions where the pace's interval has them.
        let now = 1_764_000_000_000;
        for (const op of sequence) {
          if ('close' in op) {
            const closed = await closeGate(redis, keys, now, now + op.close, 'run-1');
            const next = closeKey(state, now + op.close);
            expect(closed).toEqual({ changed: next !== state, until: next.closedUntil });
            state = next;
          } else {
            now += op.ask;
            const latest = op.latest === undefined ? Number.POSITIVE_INFINITY : now + op.latest;
            const { openedMs: _opened, ...answer } = {
              openedMs: undefined,
              ...(await askGate(redis, keys, askOf(rate, now, latest))),
            };
            const pure = reserve(rate, state, now);
            if (pure.at >= latest) {
              // A start due now is late for a latest of now: the pure maths names no reason then.
              expect(answer).toEqual({ kind: 'late', at: pure.at, why: pure.why ?? 'rate' });
            } else {
              state = pure.next;
              expect(answer).toEqual(
                pure.at <= now ? { kind: 'go' } : { kind: 'wait', at: pure.at, why: pure.why },
              );
            }
          }
          expect(await readGateState(redis, keys)).toEqual(state);
        }
      }),
      { numRuns: PROPERTY.runs, ...PROPERTY.replay },
    );
  });

  it('keep a key that pace and closings no longer bind only for a margin, and expire it then', async () => {
    const keys = gateKeys(scratchPrefix(), 'api:model-a');
    const now = 1_764_000_000_000;
    await closeGate(redis, keys, now, now + 5000, 'run-1');
    const ttl = await redis.pttl(keys.state);
    // The closing's 5 s plus the 60 s margin, less what passed on the way.
    expect(ttl).toBeGreaterThan(60_000);
    expect(ttl).toBeLessThanOrEqual(65_000);
    expect(await redis.pttl(keys.saw)).toBeGreaterThan(60_000);
  });
});

describe('the gate scripts under a concurrency', () => {
  const slotAsk = (now: number, holder: string, reserved = 0): GateAsk => ({
    ...askOf(undefined, now),
    holder,
    limit: 2,
    reserved,
  });

  it('let in at most the limit, free a slot given back or whose lease ended', async () => {
    const keys = gateKeys(scratchPrefix(), 'api');
    const now = 1_764_000_000_000;
    expect((await askGate(redis, keys, slotAsk(now, 'a'))).kind).toBe('go');
    expect((await askGate(redis, keys, slotAsk(now, 'b'))).kind).toBe('go');
    expect(await askGate(redis, keys, slotAsk(now, 'c'))).toEqual({ kind: 'full' });
    await redis.zrem(keys.running, 'a');
    expect((await askGate(redis, keys, slotAsk(now, 'c'))).kind).toBe('go');
    // b's and c's leases (1000 ms) end: d goes in at 1000 ms past.
    expect(await askGate(redis, keys, slotAsk(now + 999, 'd'))).toEqual({ kind: 'full' });
    expect((await askGate(redis, keys, slotAsk(now + 1000, 'd'))).kind).toBe('go');
  });

  it('keep the running set as long as its longest lease', async () => {
    const keys = gateKeys(scratchPrefix(), 'api');
    const now = 1_764_000_000_000;
    await askGate(redis, keys, { ...slotAsk(now, 'long'), leaseMs: 600_000 });
    await askGate(redis, keys, { ...slotAsk(now, 'short'), leaseMs: 1000 });
    expect(await redis.pttl(keys.running)).toBeGreaterThan(500_000);
  });

  it('answer a closed key to one that finds every slot held, and reserve again a start a later closing covers', async () => {
    const keys = gateKeys(scratchPrefix(), 'api');
    const now = 1_764_000_000_000;
    const rate = { limit: 10, periodMs: 1000, burst: 1 };
    const paced = (at: number, holder: string, reserved = 0): GateAsk => ({
      ...askOf(rate, at),
      holder,
      limit: 2,
      reserved,
    });
    expect((await askGate(redis, keys, paced(now, 'a'))).kind).toBe('go');
    // b reserves the next start, 100 ms on, holding its slot meanwhile.
    expect(await askGate(redis, keys, paced(now, 'b'))).toEqual({ kind: 'wait', at: now + 100, why: 'rate' });
    await closeGate(redis, keys, now + 50, now + 500, 'run-1');
    expect(await askGate(redis, keys, paced(now + 60, 'c'))).toEqual({ kind: 'closed', until: now + 500 });
    // At its start b finds the closing over it: it reserves again, after the closing.
    expect(await askGate(redis, keys, paced(now + 100, 'b', now + 100))).toEqual({
      kind: 'wait',
      at: now + 500,
      why: 'closed',
    });
    // At the reopening it goes, told once (for its run) how long the key was closed.
    expect(await askGate(redis, keys, paced(now + 500, 'b', now + 500))).toEqual({
      kind: 'go',
      openedMs: 450,
    });
    await redis.zrem(keys.running, 'a');
    expect(await askGate(redis, keys, paced(now + 600, 'a'))).toEqual({ kind: 'go', openedMs: undefined });
  });
});

describe('the gate scripts pace actual starts', () => {
  it('hold back a reserved start whose worker woke late, so that starts never come closer than the pace', async () => {
    const keys = gateKeys(scratchPrefix(), 'late-wake');
    const rate = { limit: 20, periodMs: 1000, burst: 1 };
    const now = 1_000_000;
    expect((await askGate(redis, keys, askOf(rate, now))).kind).toBe('go');
    expect(await askGate(redis, keys, askOf(rate, now))).toEqual({ kind: 'wait', at: now + 50, why: 'rate' });
    expect(await askGate(redis, keys, askOf(rate, now + 10))).toEqual({
      kind: 'wait',
      at: now + 100,
      why: 'rate',
    });
    // The second start's worker wakes 30 ms late: it goes, and its start sets the pace of the next.
    expect((await askGate(redis, keys, { ...askOf(rate, now + 80), reserved: now + 50 })).kind).toBe('go');
    // The third's worker wakes on time at its reservation, 20 ms after the second started: it waits 30 more.
    expect(await askGate(redis, keys, { ...askOf(rate, now + 100), reserved: now + 100 })).toEqual({
      kind: 'wait',
      at: now + 130,
      why: 'rate',
    });
    expect((await askGate(redis, keys, { ...askOf(rate, now + 130), reserved: now + 130 })).kind).toBe('go');
  });

  it('let go a reserved start that the pace of actual starts would push to or past its latest, giving it back', async () => {
    const keys = gateKeys(scratchPrefix(), 'late-reserved');
    const rate = { limit: 10, periodMs: 1000, burst: 1 };
    const now = 2_000_000;
    expect((await askGate(redis, keys, askOf(rate, now))).kind).toBe('go');
    expect(await askGate(redis, keys, askOf(rate, now))).toEqual({
      kind: 'wait',
      at: now + 100,
      why: 'rate',
    });
    expect(await askGate(redis, keys, askOf(rate, now, now + 250))).toEqual({
      kind: 'wait',
      at: now + 200,
      why: 'rate',
    });
    // The first reservation's worker wakes 80 ms late: the next start may come at +280, past +250.
    expect((await askGate(redis, keys, { ...askOf(rate, now + 180), reserved: now + 100 })).kind).toBe('go');
    expect(await askGate(redis, keys, { ...askOf(rate, now + 200, now + 250), reserved: now + 200 })).toEqual(
      {
        kind: 'late',
        at: now + 280,
        why: 'rate',
      },
    );
    // Its start was the last one taken: it went back, so the next ask is not queued behind it.
    expect((await readGateState(redis, keys)).tat).toBe(now + 200);
  });

  it('make a fresh ask wait for the pace of actual starts too', async () => {
    const keys = gateKeys(scratchPrefix(), 'fresh-behind');
    const rate = { limit: 10, periodMs: 1000, burst: 1 };
    const now = 3_000_000;
    expect((await askGate(redis, keys, askOf(rate, now))).kind).toBe('go');
    expect(await askGate(redis, keys, askOf(rate, now))).toEqual({
      kind: 'wait',
      at: now + 100,
      why: 'rate',
    });
    expect((await askGate(redis, keys, { ...askOf(rate, now + 180), reserved: now + 100 })).kind).toBe('go');
    expect(await askGate(redis, keys, askOf(rate, now + 200))).toEqual({
      kind: 'wait',
      at: now + 280,
      why: 'rate',
    });
  });

  it('give back the start of a waiter that leaves, while it is still the last one taken', async () => {
    const keys = gateKeys(scratchPrefix(), 'give-back');
    const rate = { limit: 10, periodMs: 1000, burst: 1 };
    const now = 4_000_000;
    expect((await askGate(redis, keys, askOf(rate, now))).kind).toBe('go');
    expect(await askGate(redis, keys, askOf(rate, now))).toEqual({
      kind: 'wait',
      at: now + 100,
      why: 'rate',
    });
    expect(await askGate(redis, keys, askOf(rate, now))).toEqual({
      kind: 'wait',
      at: now + 200,
      why: 'rate',
    });
    // The start at +100 is not the last one taken: giving it back changes nothing (its place stays empty).
    await giveBackStart(redis, keys, { reserved: now + 100, interval: 100, now: now + 10, holder: '' });
    await giveBackStart(redis, keys, { reserved: now + 200, interval: 100, now: now + 10, holder: '' });
    expect(await askGate(redis, keys, askOf(rate, now + 20))).toEqual({
      kind: 'wait',
      at: now + 200,
      why: 'rate',
    });
  });
});
