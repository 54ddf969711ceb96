/**
 * How a job's report reaches a run's ledger and run store (see `ledger.ts`): in one script with the reports
 * of the same run that other jobs of this process made in the same turn of the event loop. A worker carries
 * many jobs at once, and the jobs that Redis's answers wake together report together: one round trip and
 * one script for all of them, each still answered on its own, and each job still waits for its answer
 * before it writes what it leaves for later jobs.
 */
import type { Redis } from 'ioredis';
import { redisKeys } from '../store/redis-keys.ts';
import { COUNT_OFF_MANY } from './gather-record.ts';
import type { RunKeys } from './keys.ts';
import type { ChildCount, COUNTERS } from './ledger.ts';
import type { JoinedEvents, ReportEvents } from './report.ts';
import { evalScript } from './scripts.ts';

/** Script arguments per report (see {@link REPORT}). */
const ARGS = 15;
/** The most reports one script writes: a turn that makes more sends them in several. */
const MOST = 256;

/**
 * Writes the reports of one run. KEYS: the ledger, the set of ended items, the run store's events,
 * checkpoints and checkpoint order of the run, the set of report ids written, then each gather record the
 * reports' children count off, once. ARGV[1]: the event texts of every report that has events, in report
 * order, joined by commas. Then, per report:
 * 1–4. the four counters;
 * 5–7. the ended input item's id (empty for none), the ending count to add to (`completed`, `stopped` or
 *    empty) and its checkpoint as JSON;
 * 8. the report's id (a job's id and attempt, empty for none): a report whose id is in KEYS[6] already (a
 *    script call sent again by a client that reconnected) adds no counters and no events, nor does one that
 *    ends an input item already ended;
 * 9–10. the id of an input item the job left between placements (empty for none) and its checkpoint,
 *    written unless the item ended;
 * 11–13. for a scatter or embed child: the position in KEYS of its gather record, its index and its result
 *    (empty for none), counted off the record (see `COUNT_OFF_MANY`) even when the report is a repeat, so
 *    that the job run again finds how many are left;
 * 14–15. how many events, and the length in bytes of their JSON text in ARGV[1] (each without `seq`, `time`
 *    and `runId`, see `eventText`, joined by commas).
 * The events of the reports are stored as one span of the run store's events (see `spanMember`), with the
 * time in ms since the run started, numbered from the run-wide `seq` (the reader gives each its `seq`,
 * `time` and `runId`, see `eventsOfSpan`). When every report with events is fresh (all but always), ARGV[1]
 * is the span's text as it is: the script builds one string from it rather than one of a piece per report,
 * since every byte a script allocates costs Redis's Lua collector work. The counters of the reports are
 * added up and written once.
 * Answers per report `{last, aborted, left}`: `last` is 1 when the report ends an input item (or
 * repeats an ending) and no input item is pending (the caller closes the run), `aborted` 1 once an abort was
 * asked for, `left` the children left on the gather record (-1 when the job was not a child's). Reports for
 * a run that was closed (a job run again after its worker died) write nothing; for a run whose ledger is
 * gone they write nothing and answer a fourth value, 1.
 */
const REPORT = `${COUNT_OFF_MANY}
local ledger = KEYS[1]
local reports = (#ARGV - 1) / ${ARGS}
local out = {}
local head = redis.call('HMGET', ledger, 'start', 'closed', 'aborted', 'seq')
local aborted = 0
if head[3] then aborted = 1 end
if not head[1] or head[2] then
  local gone = {0, aborted, -1}
  if not head[1] then gone = {0, 1, -1, 1} end
  for r = 1, reports do out[r] = gone end
  return out
end
local counters = {0, 0, 0, 0}
local first = tonumber(head[4])
local seq = first - 1
-- Where each report's events are in ARGV[1], and whether any of them is left out (a repeat's).
local pos = 1
local kept = {}
local every = true
for r = 1, reports do
  local a = 1 + (r - 1) * ${ARGS}
  local fresh = ARGV[a + 8] == '' or redis.call('SADD', KEYS[6], ARGV[a + 8]) == 1
  -- A job run again after a stall that ends an item already ended repeats a history already written.
  if fresh and ARGV[a + 5] ~= '' and redis.call('SISMEMBER', KEYS[2], ARGV[a + 5]) == 1 then fresh = false end
  local bytes = tonumber(ARGV[a + 15])
  if bytes > 0 then
    if fresh then
      kept[#kept + 1] = {pos, pos + bytes - 1}
      seq = seq + tonumber(ARGV[a + 14])
    else
      every = false
    end
    pos = pos + bytes + 1
  end
  if fresh then
    for i = 1, 4 do counters[i] = counters[i] + tonumber(ARGV[a + i]) end
  end
  local moving = ARGV[a + 9]
  if fresh and moving ~= '' and redis.call('SISMEMBER', KEYS[2], moving) == 0 then
    if redis.call('HSET', KEYS[4], moving, ARGV[a + 10]) == 1 then redis.call('RPUSH', KEYS[5], moving) end
  end
  local last = 0
  local ended = ARGV[a + 5]
  if ended ~= '' then
    local pending
    if redis.call('SADD', KEYS[2], ended) == 1 then
      if redis.call('HSET', KEYS[4], ended, ARGV[a + 7]) == 1 then redis.call('RPUSH', KEYS[5], ended) end
      if ARGV[a + 6] ~= '' then redis.call('HINCRBY', ledger, ARGV[a + 6], 1) end
      pending = redis.call('HINCRBY', ledger, 'pending', -1)
    else
      pending = tonumber(redis.call('HGET', ledger, 'pending'))
    end
    if pending <= 0 then last = 1 end
  end
  local left = -1
  if ARGV[a + 12] ~= '' then left = countOffMany(KEYS[tonumber(ARGV[a + 11])], ARGV[a + 12], ARGV[a + 13]) end
  out[r] = {last, aborted, left}
end
local names = {'executions', 'retries', 'salvages', 'exhausted'}
for i = 1, 4 do
  if counters[i] ~= 0 then redis.call('HINCRBY', ledger, names[i], counters[i]) end
end
writeCounts()
if seq >= first then
  redis.call('HSET', ledger, 'seq', seq + 1)
  local events = ARGV[1]
  if not every then
    local pieces = {}
    for i = 1, #kept do pieces[i] = string.sub(events, kept[i][1], kept[i][2]) end
    events = table.concat(pieces, ',')
  end
  local t = redis.call('TIME')
  local time = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) - tonumber(head[1])
  redis.call('ZADD', KEYS[3], first, first .. ':' .. seq .. ':' .. tostring(time) .. ':[' .. events .. ']')
end
return out
`;

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
  /** The events, each without `seq`, `time` and `runId` (see `eventText`). */
  readonly events: ReportEvents;
  readonly ending?: ReportedEnding;
  /** The report's id, written once: a job's id and attempt; absent for reports no client may send twice. */
  readonly id?: string;
  /** An input item's checkpoint as the job left it between placements (not once the item ended). */
  readonly moving?: { readonly itemId: string; readonly checkpoint: string };
  /** A scatter or embed child's result, counted off its gather record with the report. */
  readonly child?: ChildCount;
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

/** The reports of one run waiting for the end of the turn, with their keys and arguments. */
interface Batch {
  readonly keys: string[];
  /** The gather records the reports count children off, each once, by its position in the script's KEYS. */
  readonly gathers: Map<string, number>;
  readonly args: string[];
  /** The event texts of the reports that have events, in report order. */
  readonly events: string[];
  readonly waiting: {
    resolve(answer: ReportAnswer): void;
    reject(error: unknown): void;
  }[];
}

/** Per connection, the reports made in this turn, by ledger key. */
const batches = new WeakMap<Redis, Map<string, Batch>>();

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

/**
 * Writes one job's report (see {@link REPORT}) with the other reports of its run made in this turn, in one
 * round trip; answers what Redis answered to it.
 */
export function writeReport(
  redis: Redis,
  keys: RunKeys,
  storePrefix: string,
  report: ReportWrite,
): Promise<ReportAnswer> {
  let pending = batches.get(redis);
  if (pending === undefined) {
    pending = new Map();
    batches.set(redis, pending);
  }
  if (pending.size === 0) process.nextTick(() => flush(redis));
  let batch = pending.get(keys.ledger);
  if (batch === undefined) {
    const store = storeKeysOf(storePrefix);
    const { runId } = report;
    batch = {
      keys: [
        keys.ledger,
        keys.ended,
        store.events(runId),
        store.checkpoints(runId),
        store.checkpointOrder(runId),
        keys.reported,
      ],
      gathers: new Map(),
      args: [],
      events: [],
      waiting: [],
    };
    pending.set(keys.ledger, batch);
  }
  const { counters, ending, child } = report;
  let record = '';
  if (child !== undefined) {
    let at = batch.gathers.get(child.gather);
    if (at === undefined) {
      at = batch.keys.length + batch.gathers.size + 1;
      batch.gathers.set(child.gather, at);
    }
    record = String(at);
  }
  const given = report.events;
  const count = Array.isArray(given) ? given.length : (given as JoinedEvents).count;
  let events = '';
  if (count > 0) {
    events = Array.isArray(given) ? given.join(',') : (given as JoinedEvents).text;
    batch.events.push(events);
  }
  batch.args.push(
    String(counters.executions),
    String(counters.retries),
    String(counters.salvages),
    String(counters.exhausted),
    ending?.itemId ?? '',
    ending?.count ?? '',
    ending?.checkpoint ?? '',
    report.id ?? '',
    report.moving?.itemId ?? '',
    report.moving?.checkpoint ?? '',
    record,
    child === undefined ? '' : String(child.index),
    child?.result ?? '',
    String(count),
    String(Buffer.byteLength(events)),
  );
  const reports = batch.waiting;
  const answer = new Promise<ReportAnswer>((resolve, reject) => {
    reports.push({ resolve, reject });
  });
  if (reports.length >= MOST) {
    pending.delete(keys.ledger);
    void send(redis, batch);
  }
  return answer;
}

/** Sends the reports made in this turn on `redis`, one script per run. */
function flush(redis: Redis): void {
  const pending = batches.get(redis);
  if (pending === undefined) return;
  batches.delete(redis);
  for (const batch of pending.values()) void send(redis, batch);
}

async function send(redis: Redis, batch: Batch): Promise<void> {
  const { keys, gathers, args, events, waiting } = batch;
  let answers: [number, number, number, number?][];
  try {
    answers = (await evalScript(
      redis,
      REPORT,
      keys.length + gathers.size,
      ...keys,
      ...gathers.keys(),
      events.join(','),
      ...args,
    )) as typeof answers;
  } catch (error) {
    for (const report of waiting) report.reject(error);
    return;
  }
  waiting.forEach((report, r) => {
    const [last, aborted, left, gone] = answers[r] as [number, number, number, number?];
    report.resolve({
      last: last === 1,
      aborted: aborted === 1,
      ...(left >= 0 ? { left } : {}),
      ...(gone === 1 ? { gone: true as const } : {}),
    });
  });
}
