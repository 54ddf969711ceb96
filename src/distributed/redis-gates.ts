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
import { tellPassed } from '../gates/gate-events.ts';
import type { GateClosing, GateEntry, GateKeyView, GateLate, GatePass, Gates } from '../gates/gates.ts';
import type { GateRef, GateWhy } from '../gates/types.ts';
import { wallElapsed } from '../policy/clock.ts';
import type { Clock } from '../policy/types.ts';
import { askGate, closeGate, type GateAnswer, giveBackStart, leaveGate } from './gate-scripts.ts';
import { askOf, pollFor, runOf, sleepUntil, waitTeller } from './gate-wait.ts';
import { type GateKeys, gateKeys } from './keys.ts';
import { PatientCalls } from './patient-calls.ts';
import { queueDelay } from './slots.ts';

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
  private readonly calls: PatientCalls;
  /** Names this worker's slot holders apart from another's. */
  private readonly id = randomUUID();
  private made = 0;

  constructor(setup: RedisGatesSetup) {
    this.redis = setup.redis;
    this.prefix = setup.prefix;
    this.clock = setup.clock;
    this.calls = new PatientCalls(setup.redis, setup.clock, setup.onLost);
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
    const closed = this.calls.call(() =>
      closeGate(this.redis, local.keys, now, closing.untilMs, runOf(closing)),
    );
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
    const holder = ref.gate.concurrency === undefined ? '' : `${this.id}:${++this.made}`;
    const ask = askOf(ref, entry, holder, since);
    const told = waitTeller(ref, entry);
    let waited = false;
    const tell = (why: GateWhy, until: number | undefined) => {
      if (why === 'closed' && until !== undefined) local.closedUntil = Math.max(local.closedUntil, until);
      waited = true;
      told(why, until);
    };
    let reserved = 0;
    let polls = 0;
    try {
      for (;;) {
        entry.signal.throwIfAborted();
        const now = this.clock.wallNow();
        const answer: GateAnswer = await this.calls.call(
          () => askGate(this.redis, local.keys, { ...ask, now, reserved }),
          entry.signal,
        );
        switch (answer.kind) {
          case 'go': {
            const pass = this.pass(ref, local, entry, holder, since, answer.openedMs);
            // An item told it waits hears that it went through, as in one process.
            if (waited) tellPassed(entry, ref.gate.name, ref.key, pass.waitedMs);
            return pass;
          }
          case 'wait':
            if (answer.at !== reserved) tell(answer.why, answer.at);
            reserved = answer.at;
            await sleepUntil(this.clock, answer.at, entry.signal);
            break;
          case 'late':
            tell(answer.why, answer.at);
            return await this.late(entry, since);
          case 'closed':
            tell('closed', answer.until);
            if (answer.until >= entry.latest) return await this.late(entry, since);
            await sleepUntil(this.clock, answer.until, entry.signal);
            break;
          case 'full': {
            tell('concurrency', undefined);
            if (now >= entry.latest) return await this.late(entry, since);
            const ms = Math.min(queueDelay(++polls), entry.latest - now);
            await pollFor(this.clock, local.polls, ms, entry.signal);
            break;
          }
        }
      }
    } catch (error) {
      // A reserved start goes back to the pace when it is still the last one taken, and a slot held while
      // waiting for it is given back (its lease would free it too).
      if (reserved > 0) {
        const start = { reserved, interval: ask.pace?.interval ?? 0, now: this.clock.wallNow(), holder };
        void giveBackStart(this.redis, local.keys, start).catch(() => undefined);
      }
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
      waitedMs: wallElapsed(this.clock, since),
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
    await sleepUntil(this.clock, entry.latest, entry.signal);
    return { late: true, waitedMs: wallElapsed(this.clock, since) };
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
