/**
 * One key of a gate in one process: the pace and closing of `gcra.ts`, a count of executions running and a
 * queue of waiters served in arrival order, with one timer for the head of the queue, through the
 * dispatcher's clock.
 */
import { wallElapsed } from '../policy/clock.ts';
import type { Clock } from '../policy/types.ts';
import { unwatchAbort, watchAbort } from '../runtime/abort-watch.ts';
import type { EventStream } from '../runtime/event-stream.ts';
import { tellPassed, tellWait } from './gate-events.ts';
import type { GateClosing, GateEntry, GateKeyView, GateLate, GatePass } from './gates.ts';
import { closeKey, emissionInterval, OPEN_KEY, reserve } from './gcra.ts';
import type { GateKeyState, GatePolicy, GateWhy } from './types.ts';

interface Waiter {
  readonly entry: GateEntry;
  readonly since: number;
  readonly resolve: (entered: GatePass | GateLate) => void;
  readonly reject: (reason: unknown) => void;
  /** Set once it was let through, let go or aborted: it is skipped when it comes to the head. */
  done: boolean;
  readonly onAbort: () => void;
  /** Ends the wait at the entry's `latest`, when it has one. */
  readonly deadline: AbortController | undefined;
  /** What its last `gate.wait` event said, so that it is said again only when it changes. */
  why: GateWhy | undefined;
}

export class KeyGate {
  state: GateKeyState = OPEN_KEY;
  running = 0;
  private readonly queue: Waiter[] = [];
  private head = 0;
  /** The head's timer, while one runs. */
  private timer: AbortController | undefined;
  /** The wall time the current closing began, until a waiter goes through after it. */
  private closedAt: number | undefined;
  /** The reason the waiters up to `toldTo` (a queue index) were last told. */
  private toldWhy: GateWhy | undefined;
  private toldTo = 0;
  /** The event streams of runs with an item waiting or running under the key, counted. */
  private readonly audience = new Map<EventStream, number>();

  constructor(
    readonly gate: GatePolicy,
    readonly key: string,
    private readonly clock: Clock,
  ) {}

  get waiting(): number {
    return this.queue.length - this.head;
  }

  enter(entry: GateEntry): GatePass | GateLate | Promise<GatePass | GateLate> {
    const now = this.clock.wallNow();
    this.listen(entry.events, 1);
    if (this.waiting === 0) {
      const why = this.blocked(now);
      if (why === undefined) return this.pass(entry, now, now);
    }
    if (entry.signal.aborted) {
      this.listen(entry.events, -1);
      return Promise.reject(entry.signal.reason);
    }
    return new Promise<GatePass | GateLate>((resolve, reject) => {
      const waiter: Waiter = {
        entry,
        since: now,
        resolve,
        reject,
        done: false,
        onAbort: () => this.drop(waiter, undefined),
        deadline: Number.isFinite(entry.latest) ? new AbortController() : undefined,
        why: undefined,
      };
      this.queue.push(waiter);
      watchAbort(entry.signal, waiter.onAbort);
      if (waiter.deadline !== undefined) {
        const ms = Math.max(0, entry.latest - now);
        this.clock.sleep(ms, waiter.deadline.signal).then(
          () => this.drop(waiter, { late: true, waitedMs: wallElapsed(this.clock, waiter.since) }),
          () => {},
        );
      }
      this.pump();
    });
  }

  close(closing: GateClosing): void {
    const now = closing.fromMs ?? this.clock.wallNow();
    const before = this.state.closedUntil;
    this.state = closeKey(this.state, closing.untilMs);
    if (this.state.closedUntil === before) return;
    if (before <= now || this.closedAt === undefined) this.closedAt = now;
    const body = {
      type: 'gate.closed',
      gate: this.gate.name,
      key: this.key,
      untilMs: this.state.closedUntil,
      reason: closing.reason,
      ...(closing.hintMs === undefined ? {} : { hintMs: closing.hintMs }),
    } as const;
    const own = { ...body, item: closing.item, dag: closing.dag, placement: closing.placement };
    closing.events?.emit(own);
    for (const events of this.audience.keys()) if (events !== closing.events) events.emit({ ...body });
    // Waiters already told they wait for the pace now wait for the closing.
    this.timer?.abort();
    this.timer = undefined;
    this.pump();
  }

  /**
   * Closes the key until `untilMs` as a closing recorded before a restart: no `gate.closed` goes out (the
   * run that recorded it has it), but the key reopens with a `gate.opened` to the runs waiting then, its
   * `closedMs` counted from now.
   */
  restore(untilMs: number): void {
    const now = this.clock.wallNow();
    const before = this.state.closedUntil;
    this.state = closeKey(this.state, untilMs);
    if (this.state.closedUntil === before) return;
    if (before <= now || this.closedAt === undefined) this.closedAt = now;
    this.timer?.abort();
    this.timer = undefined;
    this.pump();
  }

  /** Makes the key's pace owe a whole burst from wall time `fromMs` (see {@link LocalGates.restorePace}). */
  owe(fromMs: number): void {
    const rate = this.gate.rate;
    if (rate === undefined) return;
    const tat = fromMs + rate.burst * emissionInterval(rate);
    if (tat <= this.state.tat) return;
    this.state = { tat, closedUntil: this.state.closedUntil };
    this.timer?.abort();
    this.timer = undefined;
    this.pump();
  }

  /**
   * True when the key holds nothing a fresh one would not: no waiter, no execution, no closing, no pace
   * owed. Such a key can be forgotten.
   */
  idle(now: number): boolean {
    return (
      this.waiting === 0 &&
      this.running === 0 &&
      this.closedAt === undefined &&
      this.state.closedUntil <= now &&
      this.state.tat <= now
    );
  }

  view(): GateKeyView {
    return {
      gate: this.gate.name,
      key: this.key,
      closedUntil: this.state.closedUntil > this.clock.wallNow() ? this.state.closedUntil : 0,
      waiting: this.waiting,
      running: this.running,
    };
  }

  /** Why an execution asking at `now` cannot start at once; undefined when it can. */
  private blocked(now: number): GateWhy | undefined {
    const reservation = reserve(this.gate.rate, this.state, now);
    if (reservation.at > now) return reservation.why;
    const limit = this.gate.concurrency;
    return limit !== undefined && this.running >= limit ? 'concurrency' : undefined;
  }

  /** Lets the queue's head through while it can go, and sets the timer for when it can. */
  private pump(): void {
    for (;;) {
      while (this.head < this.queue.length && (this.queue[this.head] as Waiter).done) this.head++;
      if (this.head > 1024 && this.head * 2 > this.queue.length) {
        this.queue.splice(0, this.head);
        this.toldTo = Math.max(0, this.toldTo - this.head);
        this.head = 0;
      }
      if (this.head === this.queue.length) {
        this.queue.length = 0;
        this.head = 0;
        this.toldTo = 0;
        this.timer?.abort();
        this.timer = undefined;
        return;
      }
      const waiter = this.queue[this.head] as Waiter;
      const now = this.clock.wallNow();
      const reservation = reserve(this.gate.rate, this.state, now);
      if (reservation.at > now) {
        this.said(reservation.why, reservation.at);
        if (this.timer === undefined) {
          const timer = new AbortController();
          this.timer = timer;
          this.clock.sleep(Math.ceil(reservation.at - now), timer.signal).then(
            () => {
              if (this.timer !== timer) return;
              this.timer = undefined;
              this.pump();
            },
            () => {},
          );
        }
        return;
      }
      const limit = this.gate.concurrency;
      if (limit !== undefined && this.running >= limit) {
        this.said('concurrency', undefined);
        return;
      }
      this.head++;
      this.settle(waiter);
      const pass = this.pass(waiter.entry, waiter.since, now);
      // A waiter told it waits is told it goes on: progress and traces end its wait here, not at its answer.
      if (waiter.why !== undefined) this.passed(waiter, pass.waitedMs);
      waiter.resolve(pass);
    }
  }

  /** Tells each waiter that is not yet told why it waits (the head and those behind it wait alike). */
  private said(why: GateWhy | undefined, until: number | undefined): void {
    if (why === undefined) return;
    // Waiters are told again only when the key closes or reopens: the pace and the concurrency take turns
    // holding the head at nearly every start, and telling the whole queue each time would cost the square
    // of its length in events. Those told already of the same kind of reason are not looked at again.
    const closed = why === 'closed';
    const same = this.toldWhy !== undefined && (this.toldWhy === 'closed') === closed;
    const from = same ? Math.max(this.head, this.toldTo) : this.head;
    this.toldWhy = why;
    this.toldTo = this.queue.length;
    for (let i = from; i < this.queue.length; i++) {
      const waiter = this.queue[i] as Waiter;
      if (waiter.done || (waiter.why !== undefined && (waiter.why === 'closed') === closed)) continue;
      waiter.why = why;
      tellWait(waiter.entry, this.gate.name, this.key, why, until);
    }
  }

  private passed(waiter: Waiter, waitedMs: number): void {
    tellPassed(waiter.entry, this.gate.name, this.key, waitedMs);
  }

  /** Takes a start (and a place, under a concurrency) for an entry let through at `now`. */
  private pass(entry: GateEntry, since: number, now: number): GatePass {
    this.state = reserve(this.gate.rate, this.state, now).next;
    if (this.closedAt !== undefined && this.state.closedUntil <= now) {
      const closedMs = this.state.closedUntil - this.closedAt;
      this.closedAt = undefined;
      for (const events of this.audience.keys()) {
        events.emit({ type: 'gate.opened', gate: this.gate.name, key: this.key, closedMs });
      }
    }
    this.running++;
    let left = false;
    return {
      waitedMs: now - since,
      leave: () => {
        if (left) return;
        left = true;
        this.running--;
        this.listen(entry.events, -1);
        this.pump();
      },
    };
  }

  /** Takes a waiter out of the queue: its deadline passed (`late`), or its signal aborted. */
  private drop(waiter: Waiter, late: GateLate | undefined): void {
    if (waiter.done) return;
    this.settle(waiter);
    this.listen(waiter.entry.events, -1);
    if (late !== undefined) waiter.resolve(late);
    else waiter.reject(waiter.entry.signal.reason);
    this.pump();
  }

  private settle(waiter: Waiter): void {
    waiter.done = true;
    unwatchAbort(waiter.entry.signal, waiter.onAbort);
    waiter.deadline?.abort();
  }

  private listen(events: EventStream | undefined, by: 1 | -1): void {
    if (events === undefined) return;
    const count = (this.audience.get(events) ?? 0) + by;
    if (count > 0) this.audience.set(events, count);
    else this.audience.delete(events);
  }
}
