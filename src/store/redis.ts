/**
 * The run store for several machines: every record in Redis, under a key prefix. A batch of writes is one
 * optimistic transaction (WATCH, the reads its checks need, MULTI/EXEC; see redis-batch.ts), retried when
 * another writer changed a watched key meanwhile, so a batch is applied whole or not at all and the rules
 * (conflicts, lease fences) are the same as in the other stores. Writes of one store object go one after
 * another on its connection; any number of processes may share the Redis.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { SwitchyardError } from '../errors.ts';
import { checkEventQuery, pageEvents } from './event-pages.ts';
import { fromJsonText } from './json.ts';
import { grantLease, renewedLease } from './lease.ts';
import { decodeCursor, ENDED_STATUSES, encodeCursor, isAfter, pageSize, statusFilter } from './query.ts';
import { batchReads, type Command, planBatch } from './redis-batch.ts';
import { connectRedis, type RedisStoreOptions, redisFailure } from './redis-connect.ts';
import { journalField, parseSpan, type RedisKeys, redisKeys, runOwnKeys } from './redis-keys.ts';
import { eventsOfSpan } from './redis-span-events.ts';
import { closed, unknownRun } from './store-errors.ts';
import type {
  AnswerRecord,
  EventQuery,
  EventRecord,
  ItemCheckpoint,
  ItemStatus,
  JournalRecord,
  Lease,
  LeaseRequest,
  PruneOptions,
  PruneResult,
  RunPage,
  RunQuery,
  RunRecord,
  RunStore,
  StoreWrite,
} from './types.ts';

export type { RedisStoreOptions } from './redis-connect.ts';

/** Runs read from an index per round trip while listing. */
const LISTING_CHUNK = 100;
/** Spans of events read per round trip. */
const SPAN_CHUNK = 64;
/** Times a transaction is tried again after another writer changed what it read, before giving up. */
const MAX_ATTEMPTS = 100;

/**
 * Opens the Redis store at `url` (`redis://host:port/db`), or on a connection the caller owns (then left
 * open by `close`). A Redis that does not answer is refused with one `E_STORE_UNREACHABLE` line.
 * @example
 * const store = await openRedisStore('redis://127.0.0.1:6379');
 */
export async function openRedisStore(
  target: string | Redis,
  options: RedisStoreOptions = {},
): Promise<RedisRunStore> {
  const { redis, location, owned } = await connectRedis(target, options);
  return new RedisRunStore(redis, location, options.prefix ?? 'switchyard:', owned);
}

type Attempt<T> = {
  readonly watch: readonly string[];
  readonly reads: readonly Command[];
  decide(results: unknown[]): { commands: Command[]; value: T };
};

/** A {@link RunStore} in Redis. */
export class RedisRunStore implements RunStore {
  private readonly keys: RedisKeys;
  private open = true;
  /** The writes of this store, one after another: WATCH belongs to the connection. */
  private writing: Promise<unknown> = Promise.resolve();

  /** Use {@link openRedisStore}. */
  constructor(
    private readonly redis: Redis,
    readonly location: string,
    readonly prefix: string,
    private readonly owned: boolean,
  ) {
    this.keys = redisKeys(prefix);
  }

  commit(batch: readonly StoreWrite[]): Promise<void> {
    return this.transact(() => {
      const { watch, reads } = batchReads(batch, this.keys);
      return {
        watch,
        reads,
        decide: (results) => ({ commands: planBatch(batch, results, this.keys), value: undefined }),
      };
    });
  }

  async getRun(runId: string): Promise<RunRecord | undefined> {
    const text = await this.call(() => this.redis.get(this.keys.run(runId)));
    return text === null ? undefined : fromJsonText<RunRecord>(text);
  }

  /** True while the store holds run `runId`: one key looked up, its record not read. */
  async hasRun(runId: string): Promise<boolean> {
    return (await this.call(() => this.redis.exists(this.keys.run(runId)))) === 1;
  }

  async listRuns(query: RunQuery = {}): Promise<RunPage> {
    this.check();
    const limit = pageSize(query);
    const statuses = statusFilter(query);
    if (statuses?.length === 0) return { runs: [] };
    const after = decodeCursor(query.cursor);
    const index =
      query.dag !== undefined
        ? this.keys.byDag(query.dag)
        : statuses?.length === 1
          ? this.keys.byStatus(statuses[0] as string)
          : this.keys.runs;
    const max = after === undefined ? '+inf' : String(after.createdAt);
    const found: RunRecord[] = [];
    for (let offset = 0; found.length <= limit; offset += LISTING_CHUNK) {
      const ids = await this.call(() =>
        this.redis.zrevrangebyscore(index, max, '-inf', 'LIMIT', offset, LISTING_CHUNK),
      );
      if (ids.length === 0) break;
      const texts = await this.call(() => this.redis.mget(ids.map((id) => this.keys.run(id))));
      for (const text of texts) {
        if (text === null) continue;
        const run = fromJsonText<RunRecord>(text);
        if (after !== undefined && !isAfter(run, after)) continue;
        if (statuses !== undefined && !statuses.includes(run.status)) continue;
        if (query.dag !== undefined && run.dag.iri !== query.dag) continue;
        found.push(run);
        if (found.length > limit) break;
      }
      if (ids.length < LISTING_CHUNK) break;
    }
    const runs = found.slice(0, limit);
    const last = runs.at(-1);
    return found.length > limit && last !== undefined ? { runs, next: encodeCursor(last) } : { runs };
  }

  async getCheckpoint(runId: string, itemId: string): Promise<ItemCheckpoint | undefined> {
    const text = await this.call(() => this.redis.hget(this.keys.checkpoints(runId), itemId));
    return text === null ? undefined : fromJsonText<ItemCheckpoint>(text);
  }

  async listCheckpoints(runId: string, status?: ItemStatus): Promise<readonly ItemCheckpoint[]> {
    const order = await this.call(() => this.redis.lrange(this.keys.checkpointOrder(runId), 0, -1));
    if (order.length === 0) return [];
    const texts = await this.call(() => this.redis.hmget(this.keys.checkpoints(runId), ...order));
    const all = texts.filter((t): t is string => t !== null).map((t) => fromJsonText<ItemCheckpoint>(t));
    return status === undefined ? all : all.filter((checkpoint) => checkpoint.status === status);
  }

  async getJournalEntry(
    runId: string,
    itemPath: string,
    stepKey: string,
  ): Promise<JournalRecord | undefined> {
    const text = await this.call(() =>
      this.redis.hget(this.keys.journal(runId), journalField(itemPath, stepKey)),
    );
    return text === null ? undefined : fromJsonText<JournalRecord>(text);
  }

  async listJournal(runId: string, itemPath?: string): Promise<readonly JournalRecord[]> {
    const order = await this.call(() => this.redis.lrange(this.keys.journalOrder(runId), 0, -1));
    if (order.length === 0) return [];
    const texts = await this.call(() => this.redis.hmget(this.keys.journal(runId), ...order));
    const all = texts.filter((t): t is string => t !== null).map((t) => fromJsonText<JournalRecord>(t));
    return itemPath === undefined ? all : all.filter((entry) => entry.itemPath === itemPath);
  }

  async getAnswer(runId: string, token: string): Promise<AnswerRecord | undefined> {
    const text = await this.call(() => this.redis.hget(this.keys.answers(runId), token));
    return text === null ? undefined : fromJsonText<AnswerRecord>(text);
  }

  async listAnswers(runId: string): Promise<readonly AnswerRecord[]> {
    const order = await this.call(() => this.redis.lrange(this.keys.answerOrder(runId), 0, -1));
    if (order.length === 0) return [];
    const texts = await this.call(() => this.redis.hmget(this.keys.answers(runId), ...order));
    return texts.filter((t): t is string => t !== null).map((t) => fromJsonText<AnswerRecord>(t));
  }

  async readEvents(runId: string, query: EventQuery = {}): Promise<readonly EventRecord[]> {
    this.check();
    checkEventQuery(query);
    const after = query.after ?? Number.NEGATIVE_INFINITY;
    const limit = query.limit ?? Number.POSITIVE_INFINITY;
    const out: EventRecord[] = [];
    if (limit === 0) return out;
    const key = this.keys.events(runId);
    const take = (member: string) => {
      eventsOfSpan(runId, member, after, out);
      if (out.length > limit) out.length = limit;
    };
    let from = '-inf';
    if (after !== Number.NEGATIVE_INFINITY) {
      // The span starting at or before `after` may reach past it.
      const [holding] = await this.call(() => this.redis.zrevrangebyscore(key, after, '-inf', 'LIMIT', 0, 1));
      if (holding !== undefined) take(holding);
      from = `(${after}`;
    }
    while (out.length < limit) {
      const members = await this.call(() =>
        this.redis.zrangebyscore(key, from, '+inf', 'LIMIT', 0, SPAN_CHUNK),
      );
      for (const member of members) take(member);
      const last = members.at(-1);
      if (last === undefined || members.length < SPAN_CHUNK) break;
      from = `(${parseSpan(last).first}`;
    }
    return out;
  }

  streamEvents(runId: string, after?: number, size?: number): AsyncIterable<EventRecord> {
    return pageEvents(
      (from, limit) => this.readEvents(runId, from === undefined ? { limit } : { after: from, limit }),
      after,
      size,
    );
  }

  async lastEventSeq(runId: string): Promise<number | undefined> {
    const [last] = await this.call(() => this.redis.zrevrange(this.keys.events(runId), 0, 0));
    return last === undefined ? undefined : parseSpan(last).last;
  }

  acquireLease(request: LeaseRequest): Promise<Lease> {
    const { runId } = request;
    return this.transact(() => ({
      watch: [this.keys.run(runId), this.keys.lease(runId)],
      reads: [
        ['exists', this.keys.run(runId)],
        ['get', this.keys.lease(runId)],
      ],
      decide: ([exists, current]) => {
        if (exists !== 1) throw unknownRun(runId, 'the lease');
        const lease = grantLease(leaseOf(current), request, randomUUID());
        return { commands: [['set', this.keys.lease(runId), JSON.stringify(lease)]], value: lease };
      },
    }));
  }

  renewLease(lease: Lease, now: number, ttlMs: number): Promise<Lease> {
    const key = this.keys.lease(lease.runId);
    return this.transact(() => ({
      watch: [key],
      reads: [['get', key]],
      decide: ([current]) => {
        const renewed = renewedLease(leaseOf(current), lease, now, ttlMs);
        return { commands: [['set', key, JSON.stringify(renewed)]], value: renewed };
      },
    }));
  }

  releaseLease(lease: Lease): Promise<void> {
    const key = this.keys.lease(lease.runId);
    return this.transact(() => ({
      watch: [key],
      reads: [['get', key]],
      decide: ([current]) => ({
        commands: leaseOf(current)?.token === lease.token ? [['del', key]] : [],
        value: undefined,
      }),
    }));
  }

  async getLease(runId: string): Promise<Lease | undefined> {
    return leaseOf(await this.call(() => this.redis.get(this.keys.lease(runId))));
  }

  async prune(options: PruneOptions): Promise<PruneResult> {
    this.check();
    const statuses = options.statuses ?? ENDED_STATUSES;
    const ids = await this.call(() =>
      this.redis.zrangebyscore(this.keys.runs, '-inf', `(${options.olderThan}`),
    );
    let runs = 0;
    let reclaimedBytes = 0;
    for (const id of ids) {
      const pruned = await this.transact(() => ({
        watch: [this.keys.run(id)],
        reads: [
          ['get', this.keys.run(id)],
          ...runOwnKeys(this.keys, id).map((key): Command => ['memory', 'usage', key]),
        ],
        decide: ([text, ...sizes]) => {
          const run = typeof text === 'string' ? fromJsonText<RunRecord>(text) : undefined;
          if (run === undefined || !statuses.includes(run.status)) return { commands: [], value: undefined };
          return {
            commands: [
              ['del', ...runOwnKeys(this.keys, id)],
              ['zrem', this.keys.runs, id],
              ['zrem', this.keys.byStatus(run.status), id],
              ['zrem', this.keys.byDag(run.dag.iri), id],
            ],
            // What Redis says the run's keys used: the memory a prune gives back.
            value: sizes.reduce<number>((sum, size) => sum + (typeof size === 'number' ? size : 0), 0),
          };
        },
      }));
      if (pruned !== undefined) {
        runs++;
        reclaimedBytes += pruned;
      }
    }
    return { runs, reclaimedBytes };
  }

  async close(): Promise<void> {
    if (!this.open) return;
    this.open = false;
    await this.writing.catch(() => undefined);
    if (this.owned) await this.redis.quit().catch(() => this.redis.disconnect());
  }

  /**
   * Runs one optimistic transaction after the writes before it: watch, read, decide (which may refuse by
   * throwing), then MULTI/EXEC; again from the reads when a watched key changed.
   */
  private transact<T>(attempt: () => Attempt<T>): Promise<T> {
    const run = async (): Promise<T> => {
      this.check();
      const { watch, reads, decide } = attempt();
      for (let tries = 0; tries < MAX_ATTEMPTS; tries++) {
        const results = await this.call(async () => {
          await this.redis.watch(...watch);
          return settle(await this.redis.pipeline(reads.map((read) => [...read])).exec());
        });
        let decided: { commands: Command[]; value: T };
        try {
          decided = decide(results);
        } catch (error) {
          await this.redis.unwatch().catch(() => undefined);
          throw error;
        }
        const applied = await this.call(() => this.redis.multi(decided.commands as unknown[][]).exec());
        if (applied !== null) {
          settle(applied);
          return decided.value;
        }
      }
      throw new SwitchyardError(
        'E_STORE_CONFLICT',
        `${this.location}: other writers changed the same run ${MAX_ATTEMPTS} times while this write was tried; try again`,
      );
    };
    const result = this.writing.then(run, run);
    this.writing = result.catch(() => undefined);
    return result;
  }

  /** A call to Redis, after the closed check, with Redis's failures as store errors. */
  private async call<T>(body: () => Promise<T>): Promise<T> {
    this.check();
    try {
      return await body();
    } catch (error) {
      throw redisFailure(error, this.location);
    }
  }

  private check(): void {
    if (!this.open) throw closed(this.location);
  }
}

/** The answers of a pipeline or transaction, or the first error in it. */
function settle(replies: [error: Error | null, result: unknown][] | null): unknown[] {
  if (replies === null) return [];
  return replies.map(([error, result]) => {
    if (error !== null) throw error;
    return result;
  });
}

/** The lease a stored JSON text holds. */
function leaseOf(text: unknown): Lease | undefined {
  return typeof text === 'string' ? (JSON.parse(text) as Lease) : undefined;
}
