import type { CompiledPlacement } from '../graph/compile.ts';
import { sleepUnder } from './abort-watch.ts';
import { engineFailure } from './error-summary.ts';
import { type ContextOwner, ExecutionContext, isThenable } from './execute.ts';
import { embedDone, type FanDone, type FanTarget, startFan, unparkParent } from './fan-out.ts';
import type { Abandonable } from './in-flight.ts';
import { countVisit, type ItemState } from './item-state.ts';
import type { ParkedCarry } from './kinds/await.ts';
import type { ChildResult } from './kinds/gather.ts';
import type { NodeResult } from './node.ts';
import type { Prepared } from './prepare.ts';
import type { Resumed } from './resume-book.ts';
import { type ParkedFan, parkedFan, refannedOut } from './resume-fan.ts';
import type { WaitingFor } from './run.ts';
import type { Ending, RunContext } from './runner.ts';
import type { Semaphore } from './semaphore.ts';
import {
  type Effect,
  type FanOut,
  fanIn,
  type ItemAt,
  type ItemCarry,
  stepItem,
  type Transition,
  transit,
} from './step.ts';
import {
  invokeNode,
  invokeTracedNode,
  isNodeCall,
  type NodeCall,
  nodeAnswered,
  nodeThrew,
  type TaskOutcome,
} from './task.ts';

/**
 * What {@link ItemDrive}'s pending reaction waits on: a node's promise, a transition or a wait, or the
 * children of its fan out.
 */
const NODE = 1;
const STEP = 2;
const FAN = 3;

/**
 * True for a move straight to a terminal placement: the item ends at once, running no code, and its ending
 * replaces the move's checkpoint in the same batch; a durable run need not close that batch first.
 */
function endsAtOnce(moved: Transition): boolean {
  return moved.kind === 'move' && moved.delayMs === 0 && moved.to.placement.kind === 'terminal';
}

/**
 * Reacts to a node's promise: a plain native promise directly; any other thenable (a node's own, perhaps
 * hostile: a `then` that throws, or answers twice, or at once) through a promise of the engine's, whose
 * `then` job runs it in a later microtask and settles once.
 */
function reactTo(
  pending: PromiseLike<NodeResult>,
  onValue: (value: unknown) => void,
  onError: (error: unknown) => void,
): void {
  let plain = false;
  try {
    plain = Object.getPrototypeOf(pending) === Promise.prototype && !Object.hasOwn(pending, 'then');
  } catch {
    plain = false;
  }
  if (plain) (pending as Promise<NodeResult>).then(onValue, onError);
  else
    Promise.resolve()
      .then(() => pending)
      .then(onValue, onError);
}

/** True for a placement whose step fans out: a scatter or an embed. */
function fansOut(at: CompiledPlacement): boolean {
  const kind = at.placement.kind;
  return kind === 'scatter' || kind === 'embed';
}

/** Where a child item's ending goes once it comes: the parent waiting on it (a scatter's job). */
export interface ChildTarget {
  /** `drive` has ended; its {@link ItemDrive.ending} is set. */
  childEnded(drive: ItemDrive): void;
}

/**
 * One item in flight: the record the executor moves from placement to placement, one {@link step} at a
 * time. A synchronous transition goes on at once, in the same turn; an asynchronous one gets one reaction,
 * whose handlers are made once for the item and serve every transition it takes. The ending goes to the
 * item's {@link ChildTarget}, or to whoever waits on {@link ItemDrive.settled}; an item that ended within
 * {@link ItemDrive.go} has its {@link ItemDrive.ending} set when `go` returns, and tells no one.
 *
 * It never throws: failures, aborts, the run deadline and errors of the engine itself (`E_ENGINE`, or the
 * code of a thrown SwitchyardError) all end the item with an {@link Ending}.
 */
export class ItemDrive implements Abandonable, ContextOwner, ItemCarry, ItemAt, FanTarget {
  /** The placement the item is at, or goes to next. */
  at: CompiledPlacement;
  /** What the item carries between transitions: the drive's own fields, or a resumed item's carry. */
  readonly carry: ItemCarry;
  waiting: WaitingFor = 'queue';
  gathered: readonly ChildResult[] | undefined = undefined;
  delays: Map<string, number> | undefined = undefined;
  parked: ParkedCarry | undefined = undefined;
  /** How the item ended, once it has. */
  ending: Ending | undefined;
  /** True while {@link go} runs: an ending reached then is only kept, the caller reads it. */
  private starting = false;
  private resolve: ((ending: Ending) => void) | undefined;
  /** What the item's one pending reaction waits on: nothing, a node's promise, or a transition or a wait. */
  private waitingOn: 0 | typeof NODE | typeof STEP | typeof FAN = 0;
  /** The fan out the item is parked on, while its children run. */
  private fan: FanOut | undefined;
  /**
   * The node call in flight: its context once the context has something to settle after the node answers
   * (see `ContextOwner`), its start time (for `placement.end`) and its slot.
   */
  private callCtx: ExecutionContext | undefined;
  /** The number of the item's latest node call (see `ContextOwner`). */
  private calls = 0;
  private callStarted = 0;
  private callSlot: Semaphore | undefined;
  prevCall: Abandonable | undefined;
  nextCall: Abandonable | undefined;
  private readonly onMoved = (value: unknown) => this.settle(value, true);
  private readonly onThrown = (error: unknown) => this.settle(error, false);

  /**
   * `run` is the scope the item runs in; `resumed` continues an item from its checkpoint (what it carried,
   * and the wall time its wait ends); `target` and `index` say whose child it is and which one.
   */
  constructor(
    readonly run: RunContext,
    readonly prep: Prepared,
    readonly state: ItemState,
    start: CompiledPlacement,
    private readonly resumed: Resumed | undefined,
    readonly target: ChildTarget | undefined,
    readonly index: number,
  ) {
    this.at = start;
    this.carry = resumed?.carry ?? this;
  }

  /** An item that had ended before a restart: it is not moved again, and gives its recorded ending. */
  static ended(
    run: RunContext,
    prep: Prepared,
    state: ItemState,
    at: CompiledPlacement,
    ending: Ending,
    target: ChildTarget | undefined,
    index: number,
  ): ItemDrive {
    const drive = new ItemDrive(run, prep, state, at, undefined, target, index);
    drive.ending = ending;
    return drive;
  }

  /** Starts the item: it moves as far as it can in this turn. */
  go(): this {
    if (this.ending !== undefined) return this;
    const watch = this.run.root.parkWatch;
    if (watch !== undefined) watch.live++;
    this.starting = true;
    try {
      const until = this.resumed?.until;
      const left = until === undefined ? 0 : until - this.run.clock.wallNow();
      // A wait recorded before a restart ends at the same wall time: only what is left of it is slept.
      if (left > 0) {
        this.carry.waiting = 'backoff';
        this.waitingOn = STEP;
        sleepUnder(this.run.clock, left, this.run.signal).then(this.onMoved, this.onThrown);
      } else if (this.resumed?.fan !== undefined && fansOut(this.at)) this.parkAgain(this.resumed.fan);
      // Any other item goes on from its placement. That includes a parent whose checkpoint records no fan
      // out: one written by an engine that kept a parent active at its scatter or embed (the fallback for
      // those records), or one whose process stopped before its fan out was committed (its children's
      // checkpoints come in the same batch or later). It enters the placement again, and its children find
      // their checkpoints by id and frames (see `ResumeBook`).
      else this.resume(undefined);
    } finally {
      this.starting = false;
    }
    return this;
  }

  /** The item's ending, as a promise when it has not come yet. */
  settled(): Ending | Promise<Ending> {
    if (this.ending !== undefined) return this.ending;
    return new Promise<Ending>((resolve) => {
      this.resolve = resolve;
    });
  }

  /** Goes on after `moved` (undefined: from where the item is), until the item ends or waits. */
  private resume(moved: Transition | undefined): void {
    let ending: Ending | undefined;
    try {
      ending = this.advance(moved);
    } catch (error) {
      ending = this.caught(error);
    }
    if (ending !== undefined) this.end(ending);
  }

  /** Takes transitions while they come synchronously; the ending, or undefined once the item waits. */
  private advance(first: Transition | undefined): Ending | undefined {
    const run = this.run;
    const carry = this.carry;
    let moved = first;
    for (;;) {
      if (moved !== undefined) {
        // `step` has recorded the transition (a durable run's checkpoint) in the same turn as its events.
        if (moved.kind !== 'move') return moved;
        // From here the item belongs to its next placement: an abort during the back-off reports it there.
        this.at = moved.to;
        if (moved.delayMs > 0) {
          carry.waiting = 'backoff';
          this.wait(moved.delayMs);
          return undefined;
        }
      }
      carry.waiting = 'queue';
      if (run.stopReason !== undefined) {
        return run.stopped(this.prep.compiled.dag.id, this.state, this.at.key, carry.waiting);
      }
      const pending =
        this.at.placement.kind === 'task'
          ? this.task()
          : stepItem(run, this.prep, this.state, this.at, this.carry);
      if (pending === undefined) return undefined;
      if (isThenable<Transition>(pending)) {
        this.waitingOn = STEP;
        pending.then(this.onMoved, this.onThrown);
        return undefined;
      }
      if (pending.kind === 'fan out') {
        this.fanOut(pending);
        return undefined;
      }
      moved = pending;
    }
  }

  /**
   * A task placement. A node that answers with a promise gets one reaction, the item's own handlers, and
   * the item joins its scope's calls in flight, which the scope's abort abandons (see {@link abandon}):
   * no promise, closure or abort listener of its own per call. Batch nodes, placements with a deadline and
   * executions under a gate go through {@link step}. Undefined: the item waits on its node.
   */
  private task(): Effect | Promise<Transition> | undefined {
    const run = this.run;
    const prep = this.prep;
    const at = this.at;
    const state = this.state;
    const node = prep.nodes[at.index];
    if (
      node === undefined ||
      node.batch !== undefined ||
      prep.timings[at.index]?.deadlineMs !== undefined ||
      prep.gates[at.index] !== undefined
    ) {
      return stepItem(run, this.prep, this.state, this.at, this.carry);
    }
    const slot = run.semaphoreOf(prep, at);
    if (slot !== undefined && !slot.tryAcquire())
      return stepItem(run, this.prep, this.state, this.at, this.carry);
    this.carry.waiting = 'node';
    const dagId = prep.compiled.dag.id;
    let started = 0;
    let ctx: ExecutionContext;
    let called: TaskOutcome | NodeCall;
    try {
      // A slot may be granted just as the item's scope is cancelled: no start is reported for a node that
      // will not be called.
      if (run.stopReason !== undefined) throw run.signal.reason;
      const visit = countVisit(state, at.key);
      const ev = run.events;
      if (ev) started = run.placementStart(ev, state.id, dagId, at.key, visit);
      run.count('executions');
      ctx = new ExecutionContext(
        run,
        run.env.services,
        at.key,
        dagId,
        visit,
        state,
        run.clock,
        run.runId,
        this,
        ++this.calls,
      );
      const tracing = run.tracing;
      called =
        tracing === undefined
          ? invokeNode(run, node, state, ctx, at.key)
          : invokeTracedNode(run, tracing, node, state, ctx, at.key);
    } catch (error) {
      this.callCtx = undefined;
      slot?.release();
      throw error;
    }
    if (!isNodeCall(called)) {
      this.callCtx = undefined;
      slot?.release();
      return transit(run, this, called, started);
    }
    this.callStarted = started;
    this.callSlot = slot;
    this.waitingOn = NODE;
    reactTo(called.pending, this.onMoved, this.onThrown);
    // A node that stopped the run before it answered is abandoned at once.
    if (run.stopReason !== undefined) this.abandon(run.signal.reason);
    else if (this.waitingOn === NODE) run.inFlight.add(this);
    return undefined;
  }

  /** The reaction of the item's node call or asynchronous transition; a late answer of an abandoned node is dropped. */
  private settle(value: unknown, fulfilled: boolean): void {
    const on = this.waitingOn;
    this.waitingOn = 0;
    if (on === STEP) {
      if (fulfilled) this.resume(value as Transition);
      else this.end(this.caught(value));
    } else if (on === NODE) {
      this.run.inFlight.remove(this);
      this.answered(value, fulfilled);
    }
  }

  /** The context of the node call in flight has something to settle once the node answers. */
  keep(ctx: ExecutionContext, call: number): void {
    if (call === this.calls) this.callCtx = ctx;
  }

  /** Its scope aborted while the item's node was running: the node's answer is no longer waited for. */
  abandon(reason: unknown): void {
    if (this.waitingOn !== NODE) return;
    this.waitingOn = 0;
    // Taken as a rejected node in the next microtask, as a rejection's reaction would be: every listener of
    // the abort (a semaphore's waiters, a back-off's sleep) has seen it before the item gives its slot back.
    queueMicrotask(() => this.answered(reason, false));
  }

  /** The node's answer (or `reason`, when it was abandoned) goes through {@link transit}; the slot goes back. */
  private answered(value: unknown, fulfilled: boolean): void {
    const run = this.run;
    const ctx = this.callCtx;
    const slot = this.callSlot;
    this.callCtx = undefined;
    this.callSlot = undefined;
    let outcome: TaskOutcome;
    try {
      outcome = fulfilled
        ? nodeAnswered(run, ctx, this.state, value as NodeResult | undefined, this.at.key)
        : nodeThrew(run, ctx, this.state, value, this.at.key);
    } catch (error) {
      if (run.stopReason === undefined) {
        slot?.release();
        this.end(this.caught(error));
        return;
      }
      // Stopped where it stands, reported before its slot goes to the next item, as the events show it.
      const stopped = run.stopped(this.prep.compiled.dag.id, this.state, this.at.key, 'node');
      slot?.release();
      this.end(stopped);
      return;
    }
    slot?.release();
    let moved: Transition;
    try {
      moved = transit(run, this, outcome, this.callStarted);
    } catch (error) {
      this.end(this.caught(error));
      return;
    }
    if (run.durable !== undefined && !endsAtOnce(moved)) {
      // The batch that holds this transition closes before the item goes on (its close was queued as the
      // transition was recorded): the next node runs after the store was asked to commit it.
      this.waitingOn = STEP;
      Promise.resolve(moved).then(this.onMoved, this.onThrown);
      return;
    }
    this.resume(moved);
  }

  /**
   * Parks the item on its fan out: its children start now, as items of their own (see {@link startFan}),
   * and the item goes on once they have been counted off ({@link fannedIn}) or stopped ({@link fanFailed}).
   */
  private fanOut(fan: FanOut): void {
    this.fan = fan;
    this.waitingOn = FAN;
    // A durable run records the parent as parked on its children (replacing this turn's checkpoint of its
    // move to the placement), so that a resume parks it again rather than running its step again.
    const recorder = this.run.durable?.recorder;
    if (recorder !== undefined) {
      const { state, carry, at } = this;
      const parked = parkedFan(fan, this.run.clock.wallNow());
      recorder.fannedOut(this.prep.compiled.dag.id, state, at, carry, parked);
    }
    startFan(this.run, fan, this);
  }

  /**
   * A resumed parent that was parked on its fan out parks on it again (see `refannedOut`): its children go
   * on from their checkpoints, and its step is not run again. Its checkpoint stays as it was.
   */
  private parkAgain(parked: ParkedFan): void {
    let effect: FanOut | Transition;
    try {
      effect = refannedOut(this.run, this, parked);
      if (effect.kind === 'fan out') {
        this.fan = effect;
        this.waitingOn = FAN;
        startFan(this.run, effect, this);
        return;
      }
    } catch (error) {
      this.end(this.caught(error));
      return;
    }
    this.resume(effect);
  }

  /**
   * Child done, for the last of the fan out's children: the item takes its transition with their results
   * in the next microtask, as a reaction would (a fan out that ends within {@link fanOut} included).
   */
  fannedIn(done: FanDone): void {
    if (this.waitingOn !== FAN) return;
    this.waitingOn = STEP;
    queueMicrotask(() => this.goOnFrom(done));
  }

  /** The fan out was stopped (the run's abort or deadline): the item stops where it stands. */
  fanFailed(error: unknown): void {
    if (this.waitingOn !== FAN) return;
    this.waitingOn = STEP;
    queueMicrotask(() => this.goOnFrom(undefined, error));
  }

  /** An embed's child ended after the turn that started it. */
  childEnded(drive: ItemDrive): void {
    this.fannedIn(embedDone(drive));
  }

  /** Takes the fan out's transition with what its children gave (undefined: it failed with `error`). */
  private goOnFrom(done: FanDone | undefined, error?: unknown): void {
    const fan = this.fan as FanOut;
    this.fan = undefined;
    this.waitingOn = 0;
    unparkParent(this.run);
    let moved: Transition;
    try {
      if (done === undefined) throw error;
      moved = fanIn(this.run, fan, done);
    } catch (thrown) {
      this.end(this.caught(thrown));
      return;
    }
    if (this.run.durable !== undefined && !endsAtOnce(moved)) {
      // As after a node's answer: the batch holding the transition closes before the item goes on.
      this.waitingOn = STEP;
      Promise.resolve(moved).then(this.onMoved, this.onThrown);
      return;
    }
    this.resume(moved);
  }

  /** Sleeps a back-off before the item goes on. */
  private wait(delayMs: number): void {
    const run = this.run;
    const durable = run.durable;
    // The sleep fulfils with undefined: the item goes on from where it is.
    this.waitingOn = STEP;
    if (durable === undefined) {
      sleepUnder(run.clock, delayMs, run.signal).then(this.onMoved, this.onThrown);
      return;
    }
    // A durable run's wait starts once its end is in the store: a store on the network takes turns to
    // commit, and a short wait must not end (and the item act) before it is recorded.
    durable.recorder
      .settled()
      .catch(() => undefined)
      .then(() => sleepUnder(run.clock, delayMs, run.signal))
      .then(this.onMoved, this.onThrown);
  }

  /** The ending of an item whose transition threw: stopped where it stands, or failed by the engine. */
  private caught(error: unknown): Ending {
    const run = this.run;
    const dagId = this.prep.compiled.dag.id;
    if (run.stopReason !== undefined) return run.stopped(dagId, this.state, this.at.key, this.carry.waiting);
    return run.failed(dagId, this.state, this.at.key, engineFailure(error, this.at.key));
  }

  private end(ending: Ending): void {
    this.ending = ending;
    const watch = this.run.root.parkWatch;
    if (watch !== undefined) {
      watch.live--;
      watch.check();
    }
    if (this.starting) return;
    if (this.target !== undefined) this.target.childEnded(this);
    else this.resolve?.(ending);
  }
}
