import { randomInt } from 'node:crypto';
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { systemClock, withWallTime } from '../policy/clock.ts';
import { seededRandom } from '../policy/random.ts';
import type { Clock, Random } from '../policy/types.ts';
import { type NodeDefinition, type NodeRegistry, registryOf } from '../runtime/node.ts';
import { connectRedis } from '../store/redis-connect.ts';
import type { RunStore } from '../store/types.ts';
import type { TracerProviderLike } from '../telemetry/span-like.ts';
import { Tracing } from '../telemetry/tracing.ts';
import { defaultHandBack, type HandBackOptions, OnceLog } from './hand-back.ts';
import { ItemProcessor } from './item-processor.ts';
import { JOB_FORMAT, newerFormat } from './job-data.ts';
import { type LostRunCheck, lostRunOr } from './run-lost.ts';

/** The queue item jobs go to when none is named. */
export const DEFAULT_QUEUE = 'switchyard';
/** The key prefix of the queue and the runs' keys when none is given. */
export const DEFAULT_PREFIX = 'switchyard:dist';

/** Options of {@link startWorker}. */
export interface WorkerOptions {
  /** The Redis URL (redis://host:port); a Redis that does not answer refuses the start with one line. */
  readonly connection: string;
  /** The node implementations, as a registry or a list. */
  readonly nodes: NodeRegistry | readonly NodeDefinition<string, never>[];
  /** Jobs this worker carries at once; default 1. */
  readonly concurrency?: number;
  /** The queue to take jobs from; default {@link DEFAULT_QUEUE}. */
  readonly queue?: string;
  /** The key prefix (the dispatcher's must be the same); default {@link DEFAULT_PREFIX}. */
  readonly prefix?: string;
  /** Handed to every node as `ctx.services`. */
  readonly services?: unknown;
  /**
   * The run store the dispatcher records runs in (the same Redis store): `ctx.step` values are committed
   * there before the node goes on, and read back by a job that runs again after its worker died.
   */
  readonly store?: RunStore;
  /**
   * How long a job's lock lasts without renewal (BullMQ's `lockDuration`); a job whose worker died is run
   * again by another once its lock expired and a stalled-job check saw it. Default 30000.
   */
  readonly lockDurationMs?: number;
  /** How often this worker checks for stalled jobs (BullMQ's `stalledInterval`); default 30000. */
  readonly stalledIntervalMs?: number;
  /**
   * Where the worker says what an operator should hear of, one line at a time: a node it lacks, jobs of a
   * newer format, Redis lost and back. Each such thing is said once, not once per job. Default: nowhere.
   */
  readonly log?: (line: string) => void;
  /** How the worker hands back jobs it cannot carry; see {@link HandBackOptions} for the defaults. */
  readonly handBack?: Partial<HandBackOptions>;
  /**
   * Time for the worker's jobs (events, deadlines, the wall time a wait ends); default {@link systemClock}.
   * A clock without `wallNow` reads the system's wall time. A wait itself is a delayed job on the queue.
   */
  readonly clock?: Clock;
  /** Back-off jitter source; default a {@link seededRandom} generator seeded from `node:crypto` when the worker starts. */
  readonly random?: Random;
  /**
   * Traces the jobs of runs whose submitter traces them (`createDistributedDispatcher({ tracerProvider })`)
   * through this provider: each job's placement executions are spans in the run's trace, its nodes called
   * inside them. `@opentelemetry/api` is loaded on the first traced job; default none.
   */
  readonly tracerProvider?: TracerProviderLike;
}

/** A running worker. */
export interface DistributedWorker {
  /**
   * Stops taking jobs, lets the jobs it holds finish, and closes its connections; `force` does not wait
   * for them (their locks expire, and another worker runs them again).
   */
  close(force?: boolean): Promise<void>;
}

/**
 * Starts a worker that carries item jobs of any run submitted on its queue, one BullMQ job per item at a
 * placement (see {@link ItemProcessor}).
 * @example
 * const worker = await startWorker({ connection: 'redis://127.0.0.1:6379', nodes, concurrency: 8 });
 * process.once('SIGTERM', () => void worker.close());
 */
export async function startWorker(options: WorkerOptions): Promise<DistributedWorker> {
  const registry = registryOf(options.nodes);
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const name = options.queue ?? DEFAULT_QUEUE;
  const { redis, location } = await connectRedis(options.connection, {});
  const say = options.log ?? (() => undefined);
  const watch = watchConnection(redis, location, say);
  // BullMQ is loaded when a worker starts, so that importing the library does not load it.
  const { DelayedError, Queue, Worker } = await import('bullmq');
  // BullMQ's worker blocks on a connection of its own; the queue adds the delayed jobs.
  const blocking: Redis = redis.duplicate();
  blocking.on('error', () => undefined);
  const queue = new Queue(name, { connection: redis, prefix });
  const log = new OnceLog(say);
  const handBack = { ...defaultHandBack, ...options.handBack };
  const clock = withWallTime(options.clock ?? systemClock);
  const provider = options.tracerProvider;
  let tracing: Promise<Tracing> | undefined;
  const processor = new ItemProcessor({
    registry,
    redis,
    queue,
    prefix,
    services: options.services,
    store: options.store,
    faults: { log, handBack },
    clock,
    random: options.random ?? seededRandom(randomInt(0, 2 ** 32)),
    ...(provider === undefined ? {} : { tracing: () => (tracing ??= Tracing.of(provider)) }),
  });
  const lost: LostRunCheck = { redis, prefix, location, store: options.store, log };
  const carry = async (job: Job, token?: string): Promise<void> => {
    const format = newerFormat(job.data);
    if (format === undefined) {
      try {
        return await processor.process(job.data, `${job.id}:${job.attemptsStarted}`, job.id);
      } catch (error) {
        const runId = (job.data as { runId?: unknown } | null)?.runId;
        throw typeof runId === 'string' ? await lostRunOr(lost, runId, error) : error;
      }
    }
    // A newer version's job is left as it is, for a worker that reads its format; it is never rewritten.
    log.say(
      `format ${format}`,
      () =>
        `switchyard worker: jobs on queue '${name}' are in job format ${format}, written by a newer Switchyard than this worker (format ${JOB_FORMAT}); it leaves them for upgraded workers. Upgrade this worker`,
    );
    await job.moveToDelayed(clock.wallNow() + handBack.capMs, token);
    throw new DelayedError();
  };
  const worker = new Worker(name, carry, {
    connection: blocking,
    prefix,
    concurrency: options.concurrency ?? 1,
    ...(options.lockDurationMs === undefined ? {} : { lockDuration: options.lockDurationMs }),
    ...(options.stalledIntervalMs === undefined ? {} : { stalledInterval: options.stalledIntervalMs }),
    // A job whose worker died runs again on another; only one that stalls this often (a node that kills
    // every worker it runs on) is given up.
    maxStalledCount: 10,
  });
  // A job that fails is an engine error, reported by BullMQ's failed set; the worker carries on.
  worker.on('error', () => undefined);
  await worker.waitUntilReady();
  return {
    async close(force = false) {
      watch.closing();
      await worker.close(force);
      await queue.close();
      blocking.disconnect();
      await redis.quit().catch(() => undefined);
    },
  };
}

/**
 * Says when the worker loses Redis and when it is back, once per outage: ioredis reconnects with back-off
 * by itself, and calls made meanwhile wait for the connection.
 */
function watchConnection(redis: Redis, location: string, say: (line: string) => void): { closing(): void } {
  let lost = false;
  let closing = false;
  redis.on('close', () => {
    if (lost || closing) return;
    lost = true;
    say(
      `switchyard worker: lost Redis at ${location}; reconnecting with back-off, jobs and items at gates wait meanwhile`,
    );
  });
  redis.on('ready', () => {
    if (!lost || closing) return;
    lost = false;
    say(`switchyard worker: Redis at ${location} is back; carrying on`);
  });
  return {
    closing() {
      closing = true;
    },
  };
}
