/**
 * The Redis scripts of a gate key shared across workers: each asks or closes atomically, following the pure
 * functions of `gcra.ts` (`reserve`, `closeKey`) on the key's state. Times are wall-clock ms the worker's
 * clock reads and passes in (never Redis's TIME), so that workers on one virtual clock meet exact times.
 * Numbers go back and forth as strings of 17 significant digits: a pace of 3 a second has a fractional
 * emission interval, which Redis's integer replies would cut.
 */
import type { Redis } from 'ioredis';
import type { GateKeyState, GateWhy } from '../gates/types.ts';
import type { GateKeys } from './keys.ts';
import { evalScript } from './scripts.ts';

/**
 * Sets the time to live of the state (KEYS[1]) and the runs that saw a closing (KEYS[3]) to the later of
 * the closing and the pace owed, plus a margin: once both are past, the state is an open key's again.
 */
const EXPIRE = `
local function expire(now, tat, closedUntil, margin)
  local ttl = math.floor(math.max(tat, closedUntil) - now + margin)
  if ttl < margin then ttl = margin end
  redis.call('PEXPIRE', KEYS[1], ttl)
  redis.call('PEXPIRE', KEYS[3], ttl)
end
local function str(x) return string.format('%.17g', x) end
`;

/**
 * An ask at a gate key. KEYS: state, running, saw. ARGV: now, latest (-1: none), holder ('' without a
 * concurrency), limit (0: none), lease ms, emission interval (0: no pace), tolerance, the start the caller
 * reserved before (0: none), the asking run's id, the TTL margin. Answers one of
 * - `go, now, openedMs`: the execution starts now (its slot taken); `openedMs` ≥ 0 when it is the first of
 *   a run that saw the closing to go through since it ended (the closing's length), else -1;
 * - `wait, at, why`: a start at `at` is reserved (and a slot taken): the caller sleeps until then and asks
 *   again with `at` as its reservation, which goes unless a closing that began since covers it;
 * - `late, at, why`: the earliest start comes at or after `latest`: nothing is taken (a start reserved
 *   that is still the last one goes back to the pace, a slot held is given back);
 * - `closed, until` / `full, closedUntil`: every slot is held, the key closed or not.
 */
const ASK = `${EXPIRE}
local now = tonumber(ARGV[1])
local latest = tonumber(ARGV[2])
local holder = ARGV[3]
local limit = tonumber(ARGV[4])
local lease = tonumber(ARGV[5])
local interval = tonumber(ARGV[6])
local tolerance = tonumber(ARGV[7])
local reserved = tonumber(ARGV[8])
local run = ARGV[9]
local margin = tonumber(ARGV[10])
local s = redis.call('HMGET', KEYS[1], 'tat', 'closedUntil', 'closedAt', 'started')
local tat = tonumber(s[1]) or 0
local closedUntil = tonumber(s[2]) or 0
local closedAt = tonumber(s[3]) or 0
local started = tonumber(s[4]) or 0
local holds = false
if limit > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  holds = redis.call('ZSCORE', KEYS[2], holder) ~= false
end
-- Holds the caller's slot for its lease; the set lives as long as its longest lease.
local function hold()
  redis.call('ZADD', KEYS[2], str(now + lease), holder)
  if redis.call('PTTL', KEYS[2]) < lease then redis.call('PEXPIRE', KEYS[2], math.ceil(lease)) end
end
-- The pace of actual starts: a worker that woke late for its reserved start must not start closer to the
-- next than the pace allows, or starts bunch at the service. Nil when a start now keeps the pace.
local function behind()
  if interval > 0 and now < started - tolerance then return started - tolerance end
  return nil
end
local function go()
  if interval > 0 then
    started = math.max(started, now) + interval
    redis.call('HSET', KEYS[1], 'started', str(started))
  end
  if limit > 0 then hold() end
  local opened = -1
  if closedAt > 0 and closedUntil <= now and redis.call('SREM', KEYS[3], run) == 1 then
    opened = closedUntil - closedAt
  end
  expire(now, tat, closedUntil, margin)
  return {'go', str(now), str(opened)}
end
-- Let go: the start would come at or after the caller's latest. A start it reserved and that is still the
-- last one taken goes back to the pace; its slot goes back.
local function late(at, why)
  if interval > 0 and reserved > 0 and tat == reserved + interval then
    tat = reserved
    redis.call('HSET', KEYS[1], 'tat', str(tat))
  end
  if holds then redis.call('ZREM', KEYS[2], holder) end
  expire(now, tat, closedUntil, margin)
  return {'late', str(at), why}
end
-- Starts now, unless actual starts are ahead of the pace (then waits for it), or too late.
local function start(why)
  local later = behind()
  if later == nil then
    if latest >= 0 and now >= latest then return late(now, why) end
    return go()
  end
  if latest >= 0 and later >= latest then return late(later, 'rate') end
  if limit > 0 then hold() end
  expire(now, tat, closedUntil, margin)
  return {'wait', str(later), 'rate'}
end
if reserved > 0 and closedUntil <= reserved then
  if now >= reserved then return start('rate') end
  return {'wait', str(reserved), 'rate'}
end
if closedUntil > now then redis.call('SADD', KEYS[3], run) end
if limit > 0 and not holds and redis.call('ZCARD', KEYS[2]) >= limit then
  expire(now, tat, closedUntil, margin)
  if closedUntil > now then return {'closed', str(closedUntil)} end
  return {'full', str(closedUntil)}
end
local open = math.max(now, closedUntil)
local at = open
if interval > 0 then at = math.max(open, tat - tolerance) end
local why = 'rate'
if at == open and open > now then why = 'closed' end
reserved = 0
if latest >= 0 and at >= latest then return late(at, why) end
if interval > 0 then
  tat = math.max(tat, at) + interval
  redis.call('HSET', KEYS[1], 'tat', str(tat))
end
if at <= now then
  reserved = at
  return start(why)
end
if limit > 0 then hold() end
expire(now, tat, closedUntil, margin)
return {'wait', str(at), why}
`;

/**
 * Closes a gate key until ARGV[2] (`closeKey`: never shortening a closing in force). KEYS: state, running,
 * saw. ARGV: now, until, the closing run's id, the TTL margin. A closing that begins while the key is open
 * starts afresh the runs that saw one. Answers `1, until` when the closing changed, `0, closedUntil` when
 * one already in force lasts as long or longer.
 */
const CLOSE = `${EXPIRE}
local now = tonumber(ARGV[1])
local untilMs = tonumber(ARGV[2])
local run = ARGV[3]
local margin = tonumber(ARGV[4])
local s = redis.call('HMGET', KEYS[1], 'tat', 'closedUntil')
local tat = tonumber(s[1]) or 0
local closedUntil = tonumber(s[2]) or 0
if untilMs <= closedUntil then
  if closedUntil > now then redis.call('SADD', KEYS[3], run) end
  return {0, str(closedUntil)}
end
if closedUntil <= now then
  redis.call('DEL', KEYS[3])
  redis.call('HSET', KEYS[1], 'closedAt', str(now))
end
redis.call('HSET', KEYS[1], 'closedUntil', str(untilMs))
redis.call('SADD', KEYS[3], run)
expire(now, tat, untilMs, margin)
return {1, str(untilMs)}
`;

/** How long past its last pace owed and closing a key's state is kept. */
export const GATE_TTL_MARGIN_MS = 60_000;

/** What an execution asks of a gate key (see {@link askGate}). */
export interface GateAsk {
  /** The wall time of the ask. */
  readonly now: number;
  /** The latest start the caller accepts; Infinity: none. */
  readonly latest: number;
  /** The execution's member of the running set, when the gate has a concurrency. */
  readonly holder: string;
  /** The gate's concurrency; undefined: none. */
  readonly limit: number | undefined;
  readonly leaseMs: number;
  /** Emission interval and tolerance of the gate's rate (`gcra.ts`); undefined: no pace. */
  readonly pace: { readonly interval: number; readonly tolerance: number } | undefined;
  /** The start the caller reserved at its previous ask; 0: none. */
  readonly reserved: number;
  /** The asking run's id, told once when a closing it saw ends. */
  readonly run: string;
}

/** A gate key's answer to an ask. */
export type GateAnswer =
  | { readonly kind: 'go'; readonly openedMs: number | undefined }
  | { readonly kind: 'wait'; readonly at: number; readonly why: Exclude<GateWhy, 'concurrency'> }
  | { readonly kind: 'late'; readonly at: number; readonly why: Exclude<GateWhy, 'concurrency'> }
  | { readonly kind: 'closed'; readonly until: number }
  | { readonly kind: 'full' };

/** Asks gate key `keys` for a start (see the ASK script). */
export async function askGate(redis: Redis, keys: GateKeys, ask: GateAsk): Promise<GateAnswer> {
  const reply = (await evalScript(
    redis,
    ASK,
    3,
    keys.state,
    keys.running,
    keys.saw,
    ask.now,
    Number.isFinite(ask.latest) ? ask.latest : -1,
    ask.holder,
    ask.limit ?? 0,
    ask.leaseMs,
    ask.pace?.interval ?? 0,
    ask.pace?.tolerance ?? 0,
    ask.reserved,
    ask.run,
    GATE_TTL_MARGIN_MS,
  )) as [string, string, string?];
  const [kind, time, extra] = reply;
  switch (kind) {
    case 'go': {
      const opened = Number(extra);
      return { kind, openedMs: opened >= 0 ? opened : undefined };
    }
    case 'wait':
    case 'late':
      return { kind, at: Number(time), why: extra === 'closed' ? 'closed' : 'rate' };
    case 'closed':
      return { kind, until: Number(time) };
    default:
      return { kind: 'full' };
  }
}

/** Closes gate key `keys` until `untilMs`; answers whether the closing changed, and until when it holds. */
export async function closeGate(
  redis: Redis,
  keys: GateKeys,
  now: number,
  untilMs: number,
  run: string,
): Promise<{ readonly changed: boolean; readonly until: number }> {
  const reply = (await evalScript(
    redis,
    CLOSE,
    3,
    keys.state,
    keys.running,
    keys.saw,
    now,
    untilMs,
    run,
    GATE_TTL_MARGIN_MS,
  )) as [number, string];
  return { changed: Number(reply[0]) === 1, until: Number(reply[1]) };
}

/** Gives an execution's slot back. */
export async function leaveGate(redis: Redis, keys: GateKeys, holder: string): Promise<void> {
  await redis.zrem(keys.running, holder);
}

/**
 * Gives back a start reserved at ARGV[1] (KEYS: state, running) by a waiter that will not start (its run
 * aborted): when it is still the last start taken and still ahead (ARGV[3], now), the pace goes back to
 * it, so that those who ask next do not queue behind a start that never happens; the slot ARGV[4] (''
 * none) is given back.
 */
const GIVE_BACK = `
local tat = tonumber(redis.call('HGET', KEYS[1], 'tat')) or 0
local reserved = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
if interval > 0 and reserved > tonumber(ARGV[3]) and tat == reserved + interval then
  redis.call('HSET', KEYS[1], 'tat', string.format('%.17g', reserved))
end
if ARGV[4] ~= '' then redis.call('ZREM', KEYS[2], ARGV[4]) end
return 1
`;

/** Gives back the start `reserved` (and the slot of `holder`, '' none) of a waiter that leaves the gate. */
export async function giveBackStart(
  redis: Redis,
  keys: GateKeys,
  start: {
    readonly reserved: number;
    readonly interval: number;
    readonly now: number;
    readonly holder: string;
  },
): Promise<void> {
  await evalScript(
    redis,
    GIVE_BACK,
    2,
    keys.state,
    keys.running,
    String(start.reserved),
    String(start.interval),
    String(start.now),
    start.holder,
  );
}

/** A gate key's pace and closing as Redis holds them (an open key's when it holds none). */
export async function readGateState(redis: Redis, keys: GateKeys): Promise<GateKeyState> {
  const [tat, closedUntil] = await redis.hmget(keys.state, 'tat', 'closedUntil');
  return { tat: Number(tat ?? 0), closedUntil: Number(closedUntil ?? 0) };
}
