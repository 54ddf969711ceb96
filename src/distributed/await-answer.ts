/**
 * Answering an item of a distributed run from any process that reaches its Redis: checked as a local
 * dispatcher checks an answer (the same refusals, changing nothing), then recorded in the run store's
 * answers with one script, which also finds whether the item is parked. A parked item is carried on by the
 * job the answer adds; an answer for an item yet to park is kept, and the item takes it when it parks (see
 * `await-park.ts`).
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ParkedItem } from '../awaits/desk.ts';
import {
  type AnswerReceipt,
  type AnswerRequest,
  admittedAnswer,
  awaitsOf,
  resolveAnswer,
} from '../awaits/request.ts';
import { alreadyAnswered, recordedDags, recordedRun } from '../awaits/stored.ts';
import { SwitchyardError } from '../errors.ts';
import type { Clock } from '../policy/types.ts';
import { checkRequest } from '../runtime/answer.ts';
import { toJsonText } from '../store/json.ts';
import type { RedisRunStore } from '../store/redis.ts';
import { redisKeys } from '../store/redis-keys.ts';
import type { AnswerRecord } from '../store/types.ts';
import { addAwaited, type ParkRecord } from './await-park.ts';
import { JOB_FORMAT } from './job-data.ts';
import { runKeys } from './keys.ts';
import { parkedItems } from './parked-items.ts';
import { evalScript } from './scripts.ts';

/**
 * Records an answer. KEYS: the run's ledger, parked and settled hashes, the run store's answers and answer
 * order of the run. ARGV: the token, the answer record as JSON, the wall time now. Answers `{status, park}`:
 * `taken` (recorded; the item is parked, its record given), `kept` (recorded; not parked yet), or a refusal
 * that records nothing: `unknown` (no workers carry the run), `closed` (the run ended), `aborted`, `answered` (the token has an answer),
 * `deadline` (its deadline took the park), `late` (its deadline passed; its job has not taken it yet).
 */
const ANSWER = `
local head = redis.call('HMGET', KEYS[1], 'start', 'closed', 'aborted')
if not head[1] then return {'unknown'} end
if head[2] then return {'closed'} end
if head[3] then return {'aborted'} end
if redis.call('HEXISTS', KEYS[4], ARGV[1]) == 1 then return {'answered'} end
local settled = redis.call('HGET', KEYS[3], ARGV[1])
if settled == 'abort' then return {'aborted'} end
if settled then return {'deadline'} end
local park = redis.call('HGET', KEYS[2], ARGV[1])
if park and cjson.decode(park).parked.deadlineAt <= tonumber(ARGV[3]) then return {'late', park} end
redis.call('HSET', KEYS[4], ARGV[1], ARGV[2])
redis.call('RPUSH', KEYS[5], ARGV[1])
if park then return {'taken', park} end
return {'kept'}
`;

/** What an answer reaches: the workers' Redis, queue and key prefix, and the run store runs are recorded in. */
export interface AnswerTarget {
  readonly redis: Redis;
  readonly queue: Queue;
  readonly prefix: string;
  readonly store: RedisRunStore;
  readonly clock: Clock;
}

/**
 * Gives an answer to a distributed run (see `DistributedDispatcher.answer`): `taken` when its item is
 * parked (the job that carries it on is added), `kept` for an item yet to park. Refused, changing nothing:
 * a request that is no answer, an output the placement does not expect or data it does not take
 * (`E_ANSWER`, listing the expected outputs), a second answer (`E_ALREADY_ANSWERED`), a token that is none
 * (`E_UNKNOWN_TOKEN`), an item past its deadline (`E_ANSWER`), an unknown run (`E_RESUME_UNKNOWN_RUN`), one
 * that ended (`E_RUN_FINISHED`), or one no workers carry under the prefix (`E_USAGE`).
 */
export async function answerDistributed(
  target: AnswerTarget,
  request: AnswerRequest,
): Promise<AnswerReceipt> {
  checkRequest(request);
  const { redis, store, clock } = target;
  const { runId } = request;
  const record = await recordedRun(store, runId);
  if (record.status !== 'running' && record.status !== 'waiting') throw finished(runId, record.status);
  const keys = runKeys(target.prefix, runId);
  const index = awaitsOf(recordedDags(record));
  const parked = await parkedItems(redis, target.prefix, runId);
  const items = Array.isArray(record.input) ? record.input.length : 0;
  const resolved = resolveAnswer(request, parked, record.dag.iri, index, items);
  const now = clock.wallNow();
  if (resolved.parked !== undefined && resolved.parked.deadlineAt <= now) throw pastDeadline(resolved.parked);
  const answer = admittedAnswer(request, resolved, index.awaits);
  const { token } = resolved;
  const given: AnswerRecord = { runId, token, ...answer, answeredAt: now };
  const storeKeys = redisKeys(store.prefix);
  const [status, park] = (await evalScript(
    redis,
    ANSWER,
    5,
    keys.ledger,
    keys.parked,
    keys.settled,
    storeKeys.answers(runId),
    storeKeys.answerOrder(runId),
    token,
    toJsonText(given, `the answer to token '${token}'`),
    now,
  )) as [string, string?];
  const taken = park === undefined ? undefined : (JSON.parse(park) as ParkRecord).parked;
  switch (status) {
    case 'taken':
      await addAwaited(target.queue, { v: JOB_FORMAT, kind: 'awaited', runId, token, via: 'answer' });
      break;
    case 'kept':
      break;
    case 'answered':
      throw alreadyAnswered(token);
    case 'late':
    case 'deadline':
      throw pastDeadline(taken ?? resolved.parked, token);
    case 'aborted':
      throw finished(runId, 'aborted');
    case 'unknown':
      throw new SwitchyardError(
        'E_USAGE',
        `run '${runId}' is not carried by workers under key prefix '${target.prefix}': answer a run one process carries with that process's dispatcher (or \`switchyard answer\` with its store); for another installation set $SWITCHYARD_REDIS_PREFIX`,
      );
    default:
      throw finished(runId, 'ended');
  }
  const receipt = { runId, token, output: answer.output, status: status as 'taken' | 'kept' };
  return taken === undefined ? receipt : { ...receipt, item: taken.item, placement: taken.placement };
}

/** The refusal of an answer for a run that ended. */
function finished(runId: string, status: string): SwitchyardError {
  return new SwitchyardError(
    'E_RUN_FINISHED',
    `run '${runId}' already ended (${status}): nothing in it waits for an answer`,
  );
}

/** The refusal of an answer that came after its item's deadline. */
function pastDeadline(parked: ParkedItem | undefined, token?: string): SwitchyardError {
  if (parked === undefined) {
    return new SwitchyardError(
      'E_ANSWER',
      `the item of token ${token ?? ''} passed its deadline and took its deadline route; an answer comes before the deadline`,
    );
  }
  return new SwitchyardError(
    'E_ANSWER',
    `item ${parked.item} passed its deadline at '${parked.placement}' (${new Date(parked.deadlineAt).toISOString()}); it takes its deadline route`,
  );
}
