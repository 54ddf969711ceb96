import type { AnswerReceipt, AnswerRequest } from '../../awaits/request.ts';
import { createDistributedDispatcher } from '../../distributed/dispatcher.ts';
import { runKeys } from '../../distributed/keys.ts';
import { SwitchyardError } from '../../errors.ts';
import { systemClock } from '../../policy/clock.ts';
import { createDispatcher } from '../../runtime/dispatcher.ts';
import { isLive } from '../../store/lease.ts';
import { openRedisStore, type RedisRunStore } from '../../store/redis.ts';
import { connectRedis } from '../../store/redis-connect.ts';
import type { AnswerCommandOptions } from '../commands/answer.ts';
import type { SetExit } from '../commands/index.ts';
import { EXIT_OK } from '../exit-code.ts';
import type { CliIO } from '../io.ts';
import { redisPrefixes } from '../redis-prefix.ts';
import { type AnswerArguments, answeredText } from './answer-text.ts';

/** Refuses the flags of `answer` that name a local run's store or resume, which do not apply with `--redis`. */
function checkRedisFlags(options: AnswerCommandOptions): void {
  const misplaced: [boolean, string][] = [
    [options.store !== undefined, '--store and --redis name two stores; give one of them'],
    [
      options.nodes !== undefined,
      '--nodes does not apply with --redis: the workers carrying the run have the nodes',
    ],
    [
      options.resume === false || options.keepWaiting === true,
      '--no-resume and --keep-waiting do not apply with --redis: the workers carry the run on',
    ],
  ];
  const found = misplaced.find(([given]) => given);
  if (found !== undefined) throw new SwitchyardError('E_USAGE', found[1]);
}

/** The line for a receipt of the workers' run: taken at once, or kept until the item parks. */
function workersLine(receipt: AnswerReceipt): string {
  const said = answeredText(receipt);
  return receipt.status === 'taken'
    ? `${said}; the workers take it`
    : `${said}; kept until its item parks there, then the workers take it`;
}

/**
 * Answers a run recorded in the Redis run store that no workers carry (one a process runs with a Redis
 * store): recorded in the store, where that process takes it.
 */
async function recordInStore(store: RedisRunStore, request: AnswerRequest): Promise<string> {
  const receipt = await createDispatcher({ store, nodes: [] }).answer(request);
  const said = answeredText(receipt);
  const lease = await store.getLease(request.runId);
  if (lease !== undefined && isLive(lease, systemClock.wallNow()))
    return `${said}; recorded: the process running ${request.runId} (pid ${lease.pid} on ${lease.host}) takes it`;
  return `${said}; recorded: run ${request.runId} takes it when the process that runs it goes on`;
}

/** Answers a run the workers carry through a distributed dispatcher on their queue; the line it prints. */
async function answerCarried(
  url: string,
  store: RedisRunStore,
  options: AnswerCommandOptions,
  request: AnswerRequest,
): Promise<string> {
  const dispatcher = await createDistributedDispatcher({
    connection: url,
    store,
    prefix: redisPrefixes().dist,
    ...(options.queue === undefined ? {} : { queue: options.queue }),
  });
  try {
    return workersLine(await dispatcher.answer(request));
  } finally {
    await dispatcher.close();
  }
}

/**
 * Carries out `switchyard answer <run> <token> <output> --redis <url>`: a run the workers on that Redis
 * carry (it has a ledger under the key prefix of `run --redis` and `worker`, $SWITCHYARD_REDIS_PREFIX) is
 * answered through a distributed dispatcher on `--queue`, so that a parked item is taken at once by the
 * workers; any other run of the Redis run store has the answer recorded there. The refusals are a local
 * answer's: one line, nothing written.
 */
export async function redisAnswerAction(
  args: AnswerArguments,
  data: unknown,
  options: AnswerCommandOptions,
  io: CliIO,
  setExit: SetExit,
): Promise<void> {
  checkRedisFlags(options);
  const url = options.redis as string;
  const prefixes = redisPrefixes();
  const request: AnswerRequest = {
    runId: args.runId,
    token: args.token,
    output: args.output,
    ...(data === undefined ? {} : { data }),
  };
  const { redis } = await connectRedis(url, {});
  try {
    const store = await openRedisStore(redis, { prefix: prefixes.store });
    try {
      const carried = (await redis.exists(runKeys(prefixes.dist, args.runId).ledger)) === 1;
      io.out(
        carried ? await answerCarried(url, store, options, request) : await recordInStore(store, request),
      );
    } finally {
      await store.close();
    }
    setExit(EXIT_OK);
  } finally {
    await redis.quit().catch(() => undefined);
  }
}
