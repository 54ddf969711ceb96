/**
 * The ledger of a distributed run: a Redis hash beside the run's spec that the workers keep up to date with
 * each job, so that the run is carried and closed without the process that submitted it. Its fields:
 * `pending` (input items not yet ended), `items`, `seq` (the next event sequence number), `start` (Redis
 * time, ms, when the run was submitted), `dag`, `store` (the prefix of the Redis run store the run is
 * recorded in), the counters `executions`, `retries`, `salvages`, `exhausted`, the ending counts
 * `completed` and `stopped`, `aborted` (the reason, once someone asked for an abort), `closing` (the seq of
 * the run's `run.end`) and `closed`. A run with phases adds `post` (1 when it has post phases), `runItem` (the
 * run's own phase item once its pre phases ran), `added` (input items whose jobs its pre-phase job added)
 * and `phaseErrors` (a JSON list of the phases that failed); see `phase-processor.ts`.
 *
 * A job's report goes to Redis in one script (see {@link REPORT}): its events, numbered from the run-wide
 * `seq`, as one span of the run store's events; its counters; and an input item's ending, as the item's
 * checkpoint in the run store, counted off `pending` once however often a stalled job runs again.
 */
import type { Redis } from 'ioredis';
import type { PhaseError } from '../runtime/run.ts';
import { redisKeys } from '../store/redis-keys.ts';
import { COUNT_OFF } from './gather-record.ts';
import type { RunKeys } from './keys.ts';
import { evalScript } from './scripts.ts';

/**
 * Writes one job's report. KEYS: the ledger, the set of ended items, the run store's events, checkpoints and
 * checkpoint order of the run, the set of report ids written, and (for a child's job) its gather record.
 * ARGV:
 * 1. the run id as a JSON string; 2–5. the four counters;
 * 6–8. the ended input item's id (empty for none), the ending count to add to (`completed`, `stopped` or
 *    empty) and its checkpoint as JSON;
 * 9. the report's id (a job's id and attempt, empty for none): a report whose id is in KEYS[6] already (a
 *    script call sent again by a client that reconnected) adds no counters and no events, nor does one that
 *    ends an input item already ended;
 * 10–11. the id of an input item the job left between placements (empty for none) and its checkpoint,
 *    written unless the item ended;
 * 12–13. a scatter or embed child's index (empty for none) and result, counted off its gather record
 *    (see `COUNT_OFF`) even when the report is a repeat, so that the job run again finds how many are left;
 * 14 on. per event, its type as a JSON string and its body's JSON text after the opening brace, without
 *    `seq`, `time` and `runId`.
 * The events are stored as the run store stores a page of events (`first:last:` then
 * `[[seq, type, body], …]`, see `spanMember` and `pageBody`), numbered from the run-wide `seq`, with `time`
 * in ms since the run started; the page is joined from its pieces in one `table.concat`.
 * Answers `{last, aborted, left}`: `last` is 1 when the report ends an input item (or repeats an ending)
 * and no input item is pending (the caller closes the run), `aborted` 1 once an abort was asked for, `left`
 * the children left on the gather record (-1 when the job was not a child's). A report for a run that was
 * closed (a job run again after its worker died) writes nothing; one for a run whose ledger is gone writes
 * nothing and answers a fourth value, 1.
 */
const REPORT = `${COUNT_OFF}
local ledger = KEYS[1]
local head = redis.call('HMGET', ledger, 'start', 'closed', 'aborted')
if not head[1] then return {0, 1, -1, 1} end
local aborted = 0
if head[3] then aborted = 1 end
if head[2] then return {0, aborted, -1} end
local fresh = ARGV[9] == '' or redis.call('SADD', KEYS[6], ARGV[9]) == 1
-- A job run again after a stall that ends an item already ended repeats a history already written.
if fresh and ARGV[6] ~= '' and redis.call('SISMEMBER', KEYS[2], ARGV[6]) == 1 then fresh = false end
local names = {'executions', 'retries', 'salvages', 'exhausted'}
for i = 1, 4 do
  if fresh and ARGV[i + 1] ~= '0' then redis.call('HINCRBY', ledger, names[i], ARGV[i + 1]) end
end
local n = (#ARGV - 13) / 2
if fresh and n > 0 then
  local next = redis.call('HINCRBY', ledger, 'seq', n)
  local first = next - n
  local t = redis.call('TIME')
  local time = tostring(tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) - tonumber(head[1]))
  local parts = {}
  local k = 0
  for e = 0, n - 1 do
    local seq = tostring(first + e)
    if e > 0 then k = k + 1; parts[k] = ',' end
    parts[k + 1] = '['
    parts[k + 2] = seq
    parts[k + 3] = ','
    parts[k + 4] = ARGV[14 + 2 * e]
    parts[k + 5] = ',{"seq":'
    parts[k + 6] = seq
    parts[k + 7] = ',"time":'
    parts[k + 8] = time
    parts[k + 9] = ',"runId":'
    parts[k + 10] = ARGV[1]
    parts[k + 11] = ','
    parts[k + 12] = ARGV[15 + 2 * e]
    parts[k + 13] = ']'
    k = k + 13
  end
  redis.call('ZADD', KEYS[3], first, first .. ':' .. (next - 1) .. ':[' .. table.concat(parts) .. ']')
end
if fresh and ARGV[10] ~= '' and redis.call('SISMEMBER', KEYS[2], ARGV[10]) == 0 then
  if redis.call('HSET', KEYS[4], ARGV[10], ARGV[11]) == 1 then redis.call('RPUSH', KEYS[5], ARGV[10]) end
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
if ARGV[12] ~= '' then left = countOff(KEYS[7], ARGV[12], ARGV[13]) end
return {last, aborted, left}
`;

/**
 * Opens a run's ledger with its start time read from Redis's clock (the one {@link REPORT} reads), so that
 * event times do not depend on the clocks of the machines. ARGV: the ledger's time to live in ms (0: none),
 * then field/value pairs. Answers the start.
 */
const OPEN = `
local t = redis.call('TIME')
local start = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('HSET', KEYS[1], 'start', start, unpack(ARGV, 2))
if tonumber(ARGV[1]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
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
  /** True when the run has post phases: its last item then adds their job rather than closing the run. */
  readonly post?: boolean;
}

/**
 * Opens a run's ledger; answers the run's start in Redis's time (ms since the epoch). With `expireMs`, the
 * ledger goes by itself after that long unless {@link keepLedger} is called: a submitter opens it before it
 * records the run, so that no recorded run is without a ledger, and one that dies before recording the run
 * leaves nothing behind for long.
 */
export async function openLedger(
  redis: Redis,
  keys: RunKeys,
  ledger: NewLedger,
  expireMs = 0,
): Promise<number> {
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
    ...(ledger.post === true ? { post: 1 } : {}),
  };
  const args = [String(expireMs), ...Object.entries(fields).flat().map(String)];
  const start = await redis.eval(OPEN, 1, keys.ledger, ...args);
  return Number(start);
}

/** Keeps a ledger opened with an expiry until the run closes (which sets the expiry of a closed run). */
export async function keepLedger(redis: Redis, keys: RunKeys): Promise<void> {
  await redis.persist(keys.ledger);
}

/** An event as a report carries it: its body without `seq`, `time` and `runId`. */
export interface ReportedEvent {
  readonly type: string;
}

/** Each event of a report as two script arguments: its type as JSON, and its JSON text after `{`. */
export function eventPieces(events: readonly ReportedEvent[]): string[] {
  const pieces: string[] = [];
  for (const event of events) pieces.push(JSON.stringify(event.type), JSON.stringify(event).slice(1));
  return pieces;
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
  /** True when the run's ledger is gone: closed long ago and expired, or lost with Redis's data. */
  readonly gone?: true;
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
  const child = report.child;
  const args: string[] = [
    JSON.stringify(runId),
    ...COUNTERS.map((name) => String(counters[name])),
    ending?.itemId ?? '',
    ending?.count ?? '',
    ending?.checkpoint ?? '',
    report.id ?? '',
    report.moving?.itemId ?? '',
    report.moving?.checkpoint ?? '',
    child === undefined ? '' : String(child.index),
    child?.result ?? '',
    ...eventPieces(report.events),
  ];
  const [last, aborted, left, gone] = (await evalScript(
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
  )) as [number, number, number, number?];
  return {
    last: last === 1,
    aborted: aborted === 1,
    ...(left >= 0 ? { left } : {}),
    ...(gone === 1 ? { gone: true as const } : {}),
  };
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
  /** True when the run has post phases. */
  readonly post: boolean;
  /** The run's phase item as JSON, once its pre phases ran. */
  readonly runItem?: string;
  /** Input items whose jobs the run's pre-phase job added. */
  readonly added: number;
  /** True once the run's post phases ran. */
  readonly postDone: boolean;
  /** The phases that failed, in the order they ran. */
  readonly phaseErrors: readonly PhaseError[];
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
    post: fields.post !== undefined,
    ...(fields.runItem === undefined ? {} : { runItem: fields.runItem }),
    added: n('added'),
    postDone: fields.postDone !== undefined,
    phaseErrors: phaseErrorsOf(fields.phaseErrors),
  };
}

/** The `phaseErrors` field of a ledger, read back; a field that is not a list reads as none. */
function phaseErrorsOf(text: string | undefined): readonly PhaseError[] {
  if (text === undefined) return [];
  const parsed: unknown = JSON.parse(text);
  return Array.isArray(parsed) ? (parsed as PhaseError[]) : [];
}

/**
 * Records that a stage of phases ran: ARGV[1] (`runItem` or `postDone`) set to ARGV[2], and ARGV[3], the
 * failed phase as JSON (empty for none), added to `phaseErrors`. Writes nothing once the ledger is gone.
 */
const END_PHASES = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
if ARGV[3] == '' then return 1 end
local text = redis.call('HGET', KEYS[1], 'phaseErrors')
local list = '[' .. ARGV[3] .. ']'
if text and text ~= '[]' then list = string.sub(text, 1, -2) .. ',' .. ARGV[3] .. ']' end
redis.call('HSET', KEYS[1], 'phaseErrors', list)
return 1
`;

/**
 * Records in the run's ledger, in one script, that a stage of phases ran: `field` set to `value` (the run
 * item after the pre phases, a mark after the post phases) and the failed phase, if one failed.
 */
export async function endPhases(
  redis: Redis,
  keys: RunKeys,
  field: 'runItem' | 'postDone',
  value: string,
  failure: PhaseError | undefined,
): Promise<void> {
  const error = failure === undefined ? '' : JSON.stringify(failure);
  await redis.eval(END_PHASES, 1, keys.ledger, field, value, error);
}
