/**
 * Gates across workers: each gate key's pace, closing and executions live in Redis (see `gate-scripts.ts`),
 * shared by every run and worker on the same key prefix, so that a 429 one worker's item gets pauses the
 * key for all of them, and the rate and concurrency hold across workers.
 *
 * An execution asks its key for a start. With a rate, the script takes the start `reserve` gives (only when
 * it comes before the execution's latest start), and the worker sleeps on its clock until then and asks
 * again, which goes unless a closing that began since covers the reserved start (it then reserves again).
 * Starts are thus taken in the order the asks reach Redis: arrival order across workers holds for the pace
 * and for closings, except that an item whose reserved start a later closing covers goes behind the starts
 * reserved after it. Under a concurrency, an execution holds a leased member of a sorted set from its
 * start (or its reservation) until it ends; one that finds every slot held polls with back-off (25 ms
 * doubled up to 1 s), so across workers the order among those is only roughly their arrival. A job that
 * waits at a gate holds its worker's job slot meanwhile.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { GateClosing, GateEntry, GateKeyView, GateLate, GatePass, Gates } from '../gates/gates.ts';
import { emissionInterval } from '../gates/gcra.ts';
import type { GateRef, GateWhy } from '../gates/types.ts';
import type { Clock } from '../policy/types.ts';
import { askGate, closeGate, type GateAnswer, type GateAsk, leaveGate } from './gate-scripts.ts';
import { type GateKeys, gateKeys } from './keys.ts';
import { queueDelay } from './slots.ts';

/** How long a slot is held past the execution's latest start; the lease when nothing bounds it. */
const LEASE_MARGIN_MS = 30_000;
const LEASE_WITHOUT_DEADLINE_MS = 10 * 60_000;

/** What a {@link RedisGates} works with. */
export interface RedisGatesSetup {
  readonly redis: Redis;
  /** The key prefix the gate keys go under (the worker's). */
  readonly prefix: string;
  readonly clock: Clock;
  /**
   * Told when a call to Redis for a gate failed (the connection lost and not waiting for it): the gate
   * tries again with back-off meanwhile. Told again only after a call went through.
   */
  readonly onLost?: (error: unknown) => void;
}

/** What this worker knows of a gate key: its executions and waiters here, and the closing it last saw. */
interface LocalKey {
  readonly gate: string;
  readonly key: string;
  readonly keys: GateKeys;
  waiting: number;
  running: number;
  closedUntil: number;
  /** Polls of waiters for a slot, cut short when an execution here gives one back. */
  readonly polls: Set<AbortController>;
  /** The closing this worker last sent, which a slot given back waits for. */
  closing: Promise<unknown>;
}

/** The gates of one worker, kept in Redis under `prefix`. */
export class RedisGates implements Gates {
  private readonly keys = new Map<string, LocalKey>();
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly clock: Clock;
  private readonly onLost: ((error: unknown) => void) | undefined;
  /** Names this worker's slot holders apart from another's. */
  private readonly id = randomUUID();
  private made = 0;
  private lost = false;

  constructor(setup: RedisGatesSetup) {
    this.redis = setup.redis;
    this.prefix = setup.prefix;
    this.clock = setup.clock;
    this.onLost = setup.onLost;
  }

  enter(ref: GateRef, entry: GateEntry): Promise<GatePass | GateLate> {
    const local = this.keyOf(ref);
    local.waiting++;
    return this.wait(ref, local, entry).finally(() => {
      local.waiting--;
      this.forget(local);
    });
  }

  close(ref: GateRef, closing: GateClosing): Promise<void> {
    const local = this.keyOf(ref);
    const now = this.clock.wallNow();
    const closed = this.call(() => closeGate(this.redis, local.keys, now, closing.untilMs, runOf(closing)));
    const done = closed.then(({ changed, until }) => {
      local.closedUntil = Math.max(local.closedUntil, until);
      if (!changed) return;
      closing.events?.emit({
        type: 'gate.closed',
        gate: ref.gate.name,
        key: ref.key,
        untilMs: until,
        reason: closing.reason,
        ...(closing.hintMs === undefined ? {} : { hintMs: closing.hintMs }),
        item: closing.item,
        dag: closing.dag,
        placement: closing.placement,
      });
    });
    local.closing = done.catch(() => undefined);
    return done;
  }

  /** The keys this worker has executions or waiters at, as this worker sees them. */
  view(): readonly GateKeyView[] {
    const now = this.clock.wallNow();
    return [...this.keys.values()].map((k) => ({
      gate: k.gate,
      key: k.key,
      closedUntil: k.closedUntil > now ? k.closedUntil : 0,
      waiting: k.waiting,
      running: k.running,
    }));
  }

  /** Asks the key until the execution may start, sleeping on the clock between asks. */
  private async wait(ref: GateRef, local: LocalKey, entry: GateEntry): Promise<GatePass | GateLate> {
    const since = this.clock.wallNow();
    const limit = ref.gate.concurrency;
    const rate = ref.gate.rate;
    const holder = limit === undefined ? '' : `${this.id}:${++this.made}`;
    const ask: Omit<GateAsk, 'now' | 'reserved'> = {
      latest: entry.latest,
      holder,
      limit,
      leaseMs: Number.isFinite(entry.latest)
        ? Math.max(0, entry.latest - since) + LEASE_MARGIN_MS
        : LEASE_WITHOUT_DEADLINE_MS,
      pace:
        rate === undefined
          ? undefined
          : { interval: emissionInterval(rate), tolerance: (rate.burst - 1) * emissionInterval(rate) },
      run: runOf(entry),
    };
    let reserved = 0;
    let told: GateWhy | undefined;
    let polls = 0;
    const tell = (why: GateWhy, until: number | undefined) => {
      if (why === 'closed' && until !== undefined) local.closedUntil = Math.max(local.closedUntil, until);
      if (why === told) return;
      told = why;
      const { item, dag, placement } = entry;
      entry.events?.emit({
        type: 'gate.wait',
        item,
        dag,
        placement,
        gate: ref.gate.name,
        key: ref.key,
        why,
        ...(why === 'closed' && until !== undefined ? { untilMs: until } : {}),
      });
    };
    try {
      for (;;) {
        entry.signal.throwIfAborted();
        const now = this.clock.wallNow();
        const answer: GateAnswer = await this.call(() =>
          askGate(this.redis, local.keys, { ...ask, now, reserved }),
        );
        switch (answer.kind) {
          case 'go':
            return this.pass(ref, local, entry, holder, since, answer.openedMs);
          case 'wait':
            if (answer.at !== reserved) tell(answer.why, answer.at);
            reserved = answer.at;
            await this.sleepUntil(answer.at, entry.signal);
            break;
          case 'late':
            tell(answer.why, answer.at);
            return await this.late(entry, since);
          case 'closed':
            tell('closed', answer.until);
            if (answer.until > entry.latest) return await this.late(entry, since);
            await this.sleepUntil(answer.until, entry.signal);
            break;
          case 'full': {
            tell('concurrency', undefined);
            if (now >= entry.latest) return await this.late(entry, since);
            await this.poll(local, Math.min(queueDelay(++polls), entry.latest - now), entry.signal);
            break;
          }
        }
      }
    } catch (error) {
      // A slot held while waiting for a reserved start is given back; its lease would free it too.
      if (holder !== '' && reserved > 0)
        void leaveGate(this.redis, local.keys, holder).catch(() => undefined);
      throw error;
    }
  }

  /** Lets an execution through: it gives its slot back once it ended, after any closing it sent. */
  private pass(
    ref: GateRef,
    local: LocalKey,
    entry: GateEntry,
    holder: string,
    since: number,
    openedMs: number | undefined,
  ): GatePass {
    if (openedMs !== undefined) {
      entry.events?.emit({ type: 'gate.opened', gate: ref.gate.name, key: ref.key, closedMs: openedMs });
    }
    local.running++;
    let left = false;
    return {
      waitedMs: this.clock.wallNow() - since,
      leave: () => {
        if (left) return;
        left = true;
        local.running--;
        this.forget(local);
        if (holder === '') return;
        // The slot goes back after the closing this worker sent: a waiter it lets in must see the closing.
        void local.closing
          .then(() => leaveGate(this.redis, local.keys, holder))
          .catch(() => undefined)
          .finally(() => {
            for (const poll of local.polls) poll.abort();
          });
      },
    };
  }

  /** The deadline comes before the execution could start: it waits until then and is let go. */
  private async late(entry: GateEntry, since: number): Promise<GateLate> {
    await this.sleepUntil(entry.latest, entry.signal);
    return { late: true, waitedMs: this.clock.wallNow() - since };
  }

  /** Sleeps until wall time `at` (again when the clock woke it early). */
  private async sleepUntil(at: number, signal: AbortSignal): Promise<void> {
    for (let now = this.clock.wallNow(); now < at; now = this.clock.wallNow()) {
      await this.clock.sleep(Math.ceil(at - now), signal);
    }
  }

  /** Waits `ms` for a slot, or less when an execution of this worker gives one back. */
  private async poll(local: LocalKey, ms: number, signal: AbortSignal): Promise<void> {
    const cut = new AbortController();
    local.polls.add(cut);
    try {
      await this.clock.sleep(ms, AbortSignal.any([signal, cut.signal]));
    } catch (error) {
      if (signal.aborted || !cut.signal.aborted) throw error;
    } finally {
      local.polls.delete(cut);
    }
  }

  /**
   * Runs a call to Redis until it answers: a failure of the connection is told once (until a call goes
   * through again) and tried again with back-off; an error Redis answered is thrown.
   */
  private async call<T>(send: () => Promise<T>): Promise<T> {
    for (let tries = 1; ; tries++) {
      try {
        const answer = await send();
        this.lost = false;
        return answer;
      } catch (error) {
        // An error Redis answered, or a connection closed for good (the worker stopping), is not tried again.
        if (isReplyError(error) || this.redis.status === 'end') throw error;
        if (!this.lost) this.onLost?.(error);
        this.lost = true;
        await this.clock.sleep(queueDelay(tries));
      }
    }
  }

  private keyOf(ref: GateRef): LocalKey {
    let local = this.keys.get(ref.key);
    if (local === undefined) {
      local = {
        gate: ref.gate.name,
        key: ref.key,
        keys: gateKeys(this.prefix, ref.key),
        waiting: 0,
        running: 0,
        closedUntil: 0,
        polls: new Set(),
        closing: Promise.resolve(),
      };
      this.keys.set(ref.key, local);
    }
    return local;
  }

  /** Drops a key with nothing of this worker at it, once its closing is over. */
  private forget(local: LocalKey): void {
    if (local.waiting > 0 || local.running > 0 || local.closedUntil > this.clock.wallNow()) return;
    this.keys.delete(local.key);
  }
}

/** The run an entry or closing is of, for telling a run once that a closing it saw ended. */
function runOf(entry: Pick<GateEntry, 'events' | 'dag'>): string {
  return entry.events?.runId ?? entry.dag;
}

/** True for an error Redis answered (a script's error), which trying again would not mend. */
function isReplyError(error: unknown): boolean {
  return error instanceof Error && error.name === 'ReplyError';
}
