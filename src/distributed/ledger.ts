/**
 * The ledger of a distributed run: a Redis hash beside the run's spec that the workers keep up to date with
 * each job, so that the run is carried and closed without the process that submitted it. Its fields:
 * `pending` (input items not yet ended), `items`, `seq` (the next event sequence number), `start` (Redis
 * time, ms, when the run was submitted), `dag`, `store` (the prefix of the Redis run store the run is
 * recorded in), the counters `executions`, `retries`, `salvages`, `exhausted`, the ending counts
 * `completed` and `stopped`, `aborted` (the reason, once someone asked for an abort), `closing` (the seq of
 * the run's `run.end`) and `closed`.
 *
 * A job's report goes to Redis in one script (see {@link REPORT}): its events, numbered from the run-wide
 * `seq`, as one span of the run store's events; its counters; and an input item's ending, as the item's
 * checkpoint in the run store, counted off `pending` once however often a stalled job runs again.
 */
import type { Redis } from 'ioredis';
import { redisKeys } from '../store/redis-keys.ts';
import { COUNT_OFF } from './gather-record.ts';
import type { RunKeys } from './keys.ts';
import { evalScript } from './scripts.ts';

/**
 * Writes one job's report. KEYS: the ledger, the set of ended items, the run store's events, checkpoints and
 * checkpoint order of the run. ARGV: the run id as a JSON string; the four counters; the ended item's id
 * (empty for none), the ending count to add to (`completed`, `stopped` or empty) and its checkpoint as
 * JSON; then, per event, its type as a JSON string and its body as a JSON object without `seq`, `time`
 * and `runId`. Each event is stored as the run store stores a page of events (`first:last:` then
 * `[[seq, type, body], …]`, see `spanMember` and `pageBody`), with `time` in ms since the run started;
 * last, the report's id (a job's id and attempt, empty for none). KEYS[6] is the set of report ids written:
 * a report whose id is in it already (a script call sent again by a client that reconnected) adds no
 * counters and no events, nor does one that ends an input item already ended. Then the id of an input
 * item the job left between placements (empty for none) and its checkpoint, written unless it ended.
 * Last, for a scatter or embed child's job, KEYS[7] is its gather record and ARGV[14] and ARGV[15] its
 * index and result, counted off there (see `COUNT_OFF`) even when the report is a repeat, so that the job
 * run again finds how many children are left.
 * Answers `{last, aborted, left}`: `last` is 1 when the report ends an input item (or repeats an ending)
 * and no input item is pending (the caller closes the run), `aborted` 1 once an abort was asked for, `left`
 * the children left on the gather record (-1 when the job was not a child's). A report for a run that was
 * closed (a job run again after its worker died) writes nothing.
 */
const REPORT = `${COUNT_OFF}
local ledger = KEYS[1]
local head = redis.call('HMGET', ledger, 'start', 'closed', 'aborted')
if not head[1] then return {0, 1, -1} end
local aborted = 0
if head[3] then aborted = 1 end
if head[2] then return {0, aborted, -1} end
local fresh = ARGV[11] == '' or redis.call('SADD', KEYS[6], ARGV[11]) == 1
-- A job run again after a stall that ends an item already ended repeats a history already written.
if fresh and ARGV[6] ~= '' and redis.call('SISMEMBER', KEYS[2], ARGV[6]) == 1 then fresh = false end
local names = {'executions', 'retries', 'salvages', 'exhausted'}
for i = 1, 4 do
  if fresh and ARGV[i + 1] ~= '0' then redis.call('HINCRBY', ledger, names[i], ARGV[i + 1]) end
end
local n = tonumber(ARGV[9])
if fresh and n > 0 then
  local next = redis.call('HINCRBY', ledger, 'seq', n)
  local first = next - n
  local t = redis.call('TIME')
  local time = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) - tonumber(head[1])
  local mark = string.char(1)
  local page = string.gsub(ARGV[10], mark .. '(%d+)' .. mark, function(i) return tostring(first + tonumber(i)) end)
  page = string.gsub(page, string.char(2), tostring(time))
  page = string.gsub(page, string.char(3), function() return ARGV[1] end)
  redis.call('ZADD', KEYS[3], first, first .. ':' .. (next - 1) .. ':[' .. page .. ']')
end
if fresh and ARGV[12] ~= '' and redis.call('SISMEMBER', KEYS[2], ARGV[12]) == 0 then
  if redis.call('HSET', KEYS[4], ARGV[12], ARGV[13]) == 1 then redis.call('RPUSH', KEYS[5], ARGV[12]) end
end
local last = 0
if ARGV[6] ~= '' then
  local pending
  if redis.call('SADD', KEYS[2], ARGV[6]) == 1 then
    if redis.call('HSET', KEYS[4], ARGV[6], ARGV[8]) == 1 then redis.call('RPUSH', KEYS[5], ARGV[6]) end
    if ARGV[7] ~= '' then redis.call('HINCRBY', ledger, ARGV[7], 1) end
    pending = redis.call('HINCRBY', ledger, 'pending', -1)
  else
    pending = tonumber(redis.call('HGET', ledger, 'pending'))
  end
  if pending <= 0 then last = 1 end
end
local left = -1
if ARGV[14] then left = countOff(KEYS[7], ARGV[14], ARGV[15]) end
return {last, aborted, left}
`;

/**
 * Opens a run's ledger with its start time read from Redis's clock (the one {@link REPORT} reads), so that
 * event times do not depend on the clocks of the machines. ARGV: field/value pairs. Answers the start.
 */
const OPEN = `
local t = redis.call('TIME')
local start = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('HSET', KEYS[1], 'start', start, unpack(ARGV))
return start
`;

/**
 * Reserves the seq of the run's `run.end` once (a closer that runs again gets the same one). Answers the
 * seq and Redis's time now (ms), or nil when the ledger is gone.
 */
const CLOSING = `
if redis.call('EXISTS', KEYS[1]) == 0 then return nil end
local seq = redis.call('HGET', KEYS[1], 'closing')
if not seq then
  seq = redis.call('HINCRBY', KEYS[1], 'seq', 1) - 1
  redis.call('HSET', KEYS[1], 'closing', seq)
end
local t = redis.call('TIME')
return {tonumber(seq), tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)}
`;

/** The counters a run's jobs add to. */
export const COUNTERS = ['executions', 'retries', 'salvages', 'exhausted'] as const;

/** What a submitter writes in a new run's ledger. */
export interface NewLedger {
  readonly items: number;
  readonly dag: string;
  readonly storePrefix: string;
  /** The seq of the first event the workers write (the submitter wrote those before it). */
  readonly nextSeq: number;
}

/** Opens a run's ledger; answers the run's start in Redis's time (ms since the epoch). */
export async function openLedger(redis: Redis, keys: RunKeys, ledger: NewLedger): Promise<number> {
  const fields = {
    pending: ledger.items,
    items: ledger.items,
    seq: ledger.nextSeq,
    dag: ledger.dag,
    store: ledger.storePrefix,
    executions: 0,
    retries: 0,
    salvages: 0,
    exhausted: 0,
    completed: 0,
    stopped: 0,
  };
  const start = await redis.eval(OPEN, 1, keys.ledger, ...Object.entries(fields).flat().map(String));
  return Number(start);
}

/** An event as a report carries it: its body without `seq`, `time` and `runId`. */
export interface ReportedEvent {
  readonly type: string;
}

/** Mark the places of an event's seq (around its index in the page), of the time and of the run id. */
const SEQ_MARK = '\u0001';
const TIME_MARK = '\u0002';
const RUN_MARK = '\u0003';

/**
 * The JSON text of a page of events with the places of each event's seq, of the time and of the run id
 * marked by control characters, which JSON text never holds unescaped, so the script fills them in.
 */
export function pageTemplate(events: readonly ReportedEvent[]): string {
  let page = '';
  for (let i = 0; i < events.length; i++) {
    const event = events[i] as ReportedEvent;
    const seq = `${SEQ_MARK}${i}${SEQ_MARK}`;
    const rest = JSON.stringify(event).slice(1);
    page += `${i === 0 ? '' : ','}[${seq},${JSON.stringify(event.type)},{"seq":${seq},"time":${TIME_MARK},"runId":${RUN_MARK},${rest}]`;
  }
  return page;
}

/** An input item's ending as a report writes it. */
export interface ReportedEnding {
  readonly itemId: string;
  /** The ending count it adds to: `completed` (a completed terminal), `stopped` (aborted), or none. */
  readonly count: 'completed' | 'stopped' | undefined;
  /** The item's checkpoint in the run store, as JSON text. */
  readonly checkpoint: string;
}

/** A job's report, ready for {@link writeReport}. */
export interface ReportWrite {
  readonly runId: string;
  readonly counters: Readonly<Record<(typeof COUNTERS)[number], number>>;
  readonly events: readonly ReportedEvent[];
  readonly ending?: ReportedEnding;
  /** The report's id, written once: a job's id and attempt; absent for reports no client may send twice. */
  readonly id?: string;
  /** An input item's checkpoint as the job left it between placements (not once the item ended). */
  readonly moving?: { readonly itemId: string; readonly checkpoint: string };
  /** A scatter or embed child's result, counted off its gather record with the report. */
  readonly child?: ChildCount;
}

/** A child's result for its gather record: the record's key, the child's index, the result as JSON text. */
export interface ChildCount {
  readonly gather: string;
  readonly index: number;
  readonly result: string;
}

/**
 * What Redis answered to a report: whether the caller ended the run's last item, whether the run is
 * aborted, and for a child's report how many children its gather record has left (0: this was the last).
 */
export interface ReportAnswer {
  readonly last: boolean;
  readonly aborted: boolean;
  readonly left?: number;
}

/** The run store's keys under each prefix, made once: every report needs them. */
const storeKeys = new Map<string, ReturnType<typeof redisKeys>>();

function storeKeysOf(prefix: string): ReturnType<typeof redisKeys> {
  let keys = storeKeys.get(prefix);
  if (keys === undefined) {
    keys = redisKeys(prefix);
    storeKeys.set(prefix, keys);
  }
  return keys;
}

/** Writes one job's report in one round trip (see {@link REPORT}). */
export async function writeReport(
  redis: Redis,
  keys: RunKeys,
  storePrefix: string,
  report: ReportWrite,
): Promise<ReportAnswer> {
  const store = storeKeysOf(storePrefix);
  const { runId, counters, ending } = report;
  const args: string[] = [
    JSON.stringify(runId),
    ...COUNTERS.map((name) => String(counters[name])),
    ending?.itemId ?? '',
    ending?.count ?? '',
    ending?.checkpoint ?? '',
    String(report.events.length),
    pageTemplate(report.events),
    report.id ?? '',
    report.moving?.itemId ?? '',
    report.moving?.checkpoint ?? '',
  ];
  const child = report.child;
  if (child !== undefined) args.push(String(child.index), child.result);
  const [last, aborted, left] = (await evalScript(
    redis,
    REPORT,
    child === undefined ? 6 : 7,
    keys.ledger,
    keys.ended,
    store.events(runId),
    store.checkpoints(runId),
    store.checkpointOrder(runId),
    keys.reported,
    ...(child === undefined ? [] : [child.gather]),
    ...args,
  )) as [number, number, number];
  return { last: last === 1, aborted: aborted === 1, ...(left >= 0 ? { left } : {}) };
}

/** Reserves the seq of the run's `run.end`; undefined when the run's ledger is gone. */
export async function reserveClosing(
  redis: Redis,
  keys: RunKeys,
): Promise<{ readonly seq: number; readonly now: number } | undefined> {
  const answer = (await redis.eval(CLOSING, 1, keys.ledger)) as [number, number] | null;
  return answer === null ? undefined : { seq: answer[0], now: answer[1] };
}

/** A run's ledger as read back; undefined when it is gone. */
export interface LedgerView {
  readonly items: number;
  readonly pending: number;
  readonly start: number;
  readonly dag: string;
  readonly storePrefix: string;
  readonly completed: number;
  readonly stopped: number;
  readonly counters: Readonly<Record<(typeof COUNTERS)[number], number>>;
  /** The reason given with an abort request. */
  readonly aborted?: string;
  readonly closed: boolean;
}

/** Reads a run's ledger. */
export async function readLedger(redis: Redis, keys: RunKeys): Promise<LedgerView | undefined> {
  const fields = await redis.hgetall(keys.ledger);
  if (fields.start === undefined) return undefined;
  const n = (name: string) => Number(fields[name] ?? 0);
  return {
    items: n('items'),
    pending: n('pending'),
    start: n('start'),
    dag: fields.dag ?? '',
    storePrefix: fields.store ?? '',
    completed: n('completed'),
    stopped: n('stopped'),
    counters: {
      executions: n('executions'),
      retries: n('retries'),
      salvages: n('salvages'),
      exhausted: n('exhausted'),
    },
    ...(fields.aborted === undefined ? {} : { aborted: fields.aborted }),
    closed: fields.closed !== undefined,
  };
}
