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
 * A job's report goes to Redis in one script (see `report-write.ts`): its events, numbered from the run-wide
 * `seq`, as one span of the run store's events; its counters; and an input item's ending, as the item's
 * checkpoint in the run store, counted off `pending` once however often a stalled job runs again.
 */
import type { Redis } from 'ioredis';
import type { PhaseError } from '../runtime/run.ts';
import type { RunKeys } from './keys.ts';

/**
 * Opens a run's ledger with its start time read from Redis's clock (the one a report reads, see `report-write.ts`), so that
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

/** A child's result for its gather record: the record's key, the child's index, the result as JSON text. */
export interface ChildCount {
  readonly gather: string;
  readonly index: number;
  readonly result: string;
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
