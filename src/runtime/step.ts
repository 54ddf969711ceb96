import type { GatherPlacement, TerminalPlacement } from '../document/model.ts';
import type { CompiledPlacement } from '../graph/compile.ts';
import type { Random, TimingPolicy } from '../policy/types.ts';
import type { WaitReason } from '../store/types.ts';
import { awaitStep } from './await-step.ts';
import { type DecideContext, type Decision, decide, type Outcome } from './decide.ts';
import { summarise } from './error-summary.ts';
import { isThenable } from './execute.ts';
import { type FanDone, fanChildren, fanInPlace } from './fan-out.ts';
import { follow } from './follow.ts';
import { countVisit, type ItemState } from './item-state.ts';
import type { ParkedCarry } from './kinds/await.ts';
import { gatheredResults } from './kinds/children.ts';
import { type EmbedChild, embedOutcome } from './kinds/embed.ts';
import type { ChildResult } from './kinds/gather.ts';
import { reduceChildren } from './kinds/gather.ts';
import { setPointer } from './pointer.ts';
import type { Prepared } from './prepare.ts';
import type { WaitingFor } from './run.ts';
import type { Ending, RunContext } from './runner.ts';
import type { ScatterChildren } from './scatter.ts';
import type { Semaphore } from './semaphore.ts';
import { runTask, type TaskOutcome } from './task.ts';

/**
 * What an item carries from one transition to the next beyond its {@link ItemState}: what it waits for (for
 * an abort's report), the results a scatter handed to the gather it routes to, and the last delay of each
 * budget (decorrelated back-off grows from it). The last two are checkpointed with the item.
 */
export interface ItemCarry {
  waiting: WaitingFor;
  gathered: readonly ChildResult[] | undefined;
  delays: Map<string, number> | undefined;
  /** Set for an item a resumed run finds parked at an await: it parks again with the same visit and deadline. */
  parked: ParkedCarry | undefined;
}

/** The item moves to `to`, after waiting `delayMs` (0: at once) for `reason`. */
export interface Move {
  readonly kind: 'move';
  readonly to: CompiledPlacement;
  readonly delayMs: number;
  readonly reason: WaitReason | undefined;
}

/**
 * An item at a placement, as a transition sees it: the prepared document it is in, its state, the placement
 * and what it carries between transitions.
 */
export interface ItemAt {
  readonly prep: Prepared;
  readonly state: ItemState;
  readonly at: CompiledPlacement;
  readonly carry: ItemCarry;
}

/** One transition of an item: it moved on, or it ended (see {@link Ending}). */
export type Transition = Move | Ending;

/**
 * A scatter or an embed fans out: the item stays parked at the placement while `children` run as items of
 * their own (a scatter's list elements, or an embed's one child), and goes on with {@link fanIn} once `count`
 * of them have been counted off (or a `first` gather is decided without the rest). `started` is the clock
 * time the placement started, for its `placement.end`.
 */
export interface FanOut {
  readonly kind: 'fan out';
  readonly item: ItemAt;
  readonly children: ScatterChildren | EmbedChildren;
  readonly count: number;
  /** The visit of the placement the parent fanned out at (children's frames and records are keyed by it). */
  readonly visit: number;
  readonly started: number;
}

/** What an embed fans out: its one child item and the document it runs. */
export interface EmbedChildren extends EmbedChild {
  readonly kind: 'embed';
}

/** What {@link stepItem} returns: a transition, or a fan out for the executor to carry out. */
export type Effect = Transition | FanOut;

/** A carry for an item that has not moved yet. */
export function freshCarry(): ItemCarry {
  return { waiting: 'queue', gathered: undefined, delays: undefined, parked: undefined };
}

/**
 * Moves an item by one transition, as {@link stepItem} does, and carries out a fan out itself in this process
 * (see {@link fanInPlace}): for a caller that moves one item at a time and runs no children of its own (a
 * distributed worker running a `first` gather's scatter in one job).
 */
export function step(
  run: RunContext,
  prep: Prepared,
  state: ItemState,
  at: CompiledPlacement,
  carry: ItemCarry,
): Transition | Promise<Transition> {
  const effect = stepItem(run, prep, state, at, carry);
  if (isThenable<Transition>(effect) || effect.kind !== 'fan out') return effect;
  return fanInPlace(run, effect);
}

/**
 * Moves an item by one transition: executes the placement it is at (a node, a gather, an await, a
 * terminal), hands the outcome to {@link decide}, and carries the decision out with {@link follow}; at a
 * scatter or an embed it returns the {@link FanOut} for the executor to carry out. It says where the item goes and how long it waits first, and never sleeps. In a
 * durable run it hands the transition to the run's recorder (the item's checkpoint at its next placement,
 * with the wall time its wait ends, or its ending) in the same turn as the transition's events, so a crash
 * never keeps the events of a transition without its checkpoint; the loops that call it (in process,
 * durable) only sleep the wait. Synchronous nodes give a synchronous transition.
 */
export function stepItem(
  run: RunContext,
  prep: Prepared,
  state: ItemState,
  at: CompiledPlacement,
  carry: ItemCarry,
): Effect | Promise<Transition> {
  const placement = at.placement;
  if (placement.kind === 'terminal') {
    countVisit(state, at.key);
    const ev = run.events;
    if (ev) {
      const dag = prep.compiled.dag.id;
      ev.emit({ type: 'item.end', item: state.id, dag, terminal: at.key, outcome: placement.outcome });
    }
    return run.ended(prep.compiled.dag.id, state, at.key, terminalEnding(at));
  }
  const item: ItemAt = { prep, state, at, carry };
  if (placement.kind === 'task') {
    const semaphore = run.semaphoreOf(prep, at);
    if (semaphore !== undefined && !semaphore.tryAcquire()) {
      carry.waiting = 'queue';
      return semaphore.acquire(run.signal).then(() => taskStep(run, item, semaphore));
    }
    return taskStep(run, item, semaphore);
  }
  if (placement.kind === 'gather') return gatherStep(run, item);
  if (placement.kind === 'await') return awaitStep(run, item);
  return fanStep(run, item);
}

/** A gather placement: reduces the results its scatter handed over, synchronously. */
function gatherStep(run: RunContext, item: ItemAt): Transition {
  const { prep, state, at, carry } = item;
  carry.waiting = 'node';
  const placement = at.placement as GatherPlacement;
  const visit = countVisit(state, at.key);
  const ev = run.events;
  const started = ev ? run.placementStart(ev, state.id, prep.compiled.dag.id, at.key, visit) : 0;
  const reduced = reduceChildren(placement, carry.gathered ?? []);
  carry.gathered = undefined;
  state.data = setPointer(state.data, placement.into, reduced.value);
  return transit(run, item, { output: reduced.output }, started);
}

/** A task placement, holding a slot of `semaphore` (when it has one) until the node has settled. */
function taskStep(
  run: RunContext,
  item: ItemAt,
  semaphore: Semaphore | undefined,
): Transition | Promise<Transition> {
  const { prep, state, at, carry } = item;
  carry.waiting = 'node';
  let pending: TaskOutcome | Promise<TaskOutcome>;
  let started = 0;
  try {
    // A slot may be granted just as the item's scope is cancelled: no start is reported for a node that
    // will not be called.
    if (run.stopReason !== undefined) throw run.signal.reason;
    const visit = countVisit(state, at.key);
    const ev = run.events;
    if (ev) started = run.placementStart(ev, state.id, prep.compiled.dag.id, at.key, visit);
    pending = runTask(run, prep, at, state, visit);
  } catch (error) {
    semaphore?.release();
    throw error;
  }
  if (isThenable<TaskOutcome>(pending)) {
    return pending.then(
      (outcome) => {
        semaphore?.release();
        return transit(run, item, outcome, started);
      },
      (error: unknown) => {
        if (run.stopReason === undefined) {
          semaphore?.release();
          throw error;
        }
        // Stopped where it stands, reported before its slot goes to the next item, as the events show it.
        const stopped = run.stopped(prep.compiled.dag.id, state, at.key, 'node');
        semaphore?.release();
        return stopped;
      },
    );
  }
  semaphore?.release();
  return transit(run, item, pending, started);
}

/**
 * Scatter, embed and phase placements. A scatter or an embed fans out: the parent waits, parked, for its
 * children (see {@link FanOut}); an input it cannot fan out is its error outcome (its `error` route, if any).
 * Synchronous, so a distributed worker calls it directly to carry the fan out out as jobs.
 */
export function fanStep(run: RunContext, item: ItemAt): Transition | FanOut {
  const { prep, state, at, carry } = item;
  carry.waiting = 'node';
  const placement = at.placement;
  const visit = countVisit(state, at.key);
  const ev = run.events;
  const started = ev ? run.placementStart(ev, state.id, prep.compiled.dag.id, at.key, visit) : 0;
  if (placement.kind === 'scatter' || placement.kind === 'embed') {
    const children = fanChildren(run, item, visit);
    if ('error' in children) return transit(run, item, children, started);
    const count = children.kind === 'scatter' ? children.list.length : 1;
    return { kind: 'fan out', item, children, count, visit, started };
  }
  // Phases are not on item paths: the dispatcher refuses documents that route to them
  // (E_ENTRYPOINT_KIND, E_DANGLING_ROUTE); an item sent to one anyway takes `done`.
  return transit(run, item, { output: 'done' }, started);
}

/**
 * Child done, for the last child of a fan out (or the one that decided a `first` gather): the parent's
 * transition with what its children gave, the same in every executor. A scatter hands their results, in
 * input order, to the gather it routes to and takes `done` (steps a child recorded apart, as a distributed
 * child does, join the parent's journal: see `gatheredResults`); an embed takes the outcome its result
 * mapping makes of its child's ending (see `embedOutcome`). A child stopped by the run's abort or deadline,
 * or an embed's child that has no ending (a cancelled child job), stops the parent where it stands.
 */
export function fanIn(run: RunContext, fan: Pick<FanOut, 'item' | 'started'>, done: FanDone): Transition {
  const { item, started } = fan;
  let outcome: Outcome;
  if ('results' in done) {
    item.carry.gathered = gatheredResults(item.state, done.results);
    outcome = { output: 'done' };
  } else {
    const embedded = embedOutcome(item.at, item.state, done);
    if (embedded === undefined) {
      return run.stopped(item.prep.compiled.dag.id, item.state, item.at.key, item.carry.waiting);
    }
    outcome = embedded;
  }
  return transit(run, item, outcome, started);
}

/** Where a thrown error's Retry-After was, for a warning: its `retryAfter`, or a header of its response. */
function thrownHint(from: string | undefined): string {
  return from === undefined || from === 'retryAfter'
    ? 'threw an error with a retryAfter'
    : `threw an error whose ${from} hold a Retry-After`;
}

/**
 * Decides on an outcome and follows the decision: the item's next placement and wait, or its failure.
 * `started` is the clock time the placement started (for its `placement.end`). Exported for the
 * distributed workers, which run a scatter's children as jobs and take the scatter's transition once the
 * last child ended.
 */
export function transit(
  run: RunContext,
  item: ItemAt,
  outcome: TaskOutcome | Outcome,
  started: number,
): Transition {
  const { prep, state, at, carry } = item;
  const dagId = prep.compiled.dag.id;
  let hint: unknown = 'retryAfter' in outcome ? outcome.retryAfter : undefined;
  if (hint !== undefined) hint = run.usableHint(hint, state.id, dagId, at.key, 'returned a retryAfter');
  else if ('error' in outcome && outcome.error.retryAfter !== undefined)
    run.usableHint(
      outcome.error.retryAfter,
      state.id,
      dagId,
      at.key,
      thrownHint(outcome.error.retryAfterFrom),
    );
  const now = run.clock.now();
  const ctx = DECIDING;
  ctx.timing = prep.timings[at.index] ?? run.env.policy.defaults;
  ctx.budgets = prep.compiled.budgets;
  ctx.now = now;
  // Only an HTTP-date needs the wall clock; reading it on every decision would cost every run.
  ctx.wallNow =
    hint !== undefined || ('error' in outcome && outcome.error.retryAfter !== undefined)
      ? run.clock.wallNow()
      : now;
  ctx.runDeadlineAt = run.runDeadlineAt;
  ctx.random = run.env.random;
  ctx.retryAfter = hint;
  ctx.delays = carry.delays;
  let decision: Decision;
  try {
    decision = decide(at, state, outcome, ctx);
  } finally {
    ctx.retryAfter = undefined;
    ctx.delays = undefined;
  }
  const ev = run.events;
  if (ev) {
    const error = 'error' in outcome ? summarise(outcome.error) : undefined;
    run.placementEnd(
      ev,
      { item: state.id, dag: dagId, placement: at.key, output: decision.output, error },
      started,
      now,
    );
  }
  if (decision.type === 'fail') return run.failed(dagId, state, at.key, decision.error);
  let delayMs = 0;
  let reason: WaitReason | undefined;
  if (decision.type === 'wait') {
    carry.delays ??= new Map();
    carry.delays.set(decision.budget, decision.delayMs);
    delayMs = decision.delayMs;
    if (delayMs > 0) reason = decision.delaySource;
  }
  const to = follow(run, item, decision, now);
  // A durable run records the transition now, in the same turn as its events, before the item acts on it.
  const recorder = run.durable?.recorder;
  if (recorder !== undefined) {
    const wait =
      delayMs > 0 ? { until: run.clock.wallNow() + delayMs, reason: reason ?? 'backoff' } : undefined;
    recorder.moved(dagId, state, to, carry, wait);
  }
  if (delayMs === 0 && reason === undefined) return atOnce(to);
  return { kind: 'move', to, delayMs, reason };
}

/**
 * The context of every decision, filled in by {@link transit} and read by `decide` within the call: one
 * object rather than one per transition (`decide` keeps nothing of it).
 */
const DECIDING: { -readonly [K in keyof DecideContext]-?: DecideContext[K] } = {
  timing: undefined as unknown as TimingPolicy,
  budgets: [],
  now: 0,
  wallNow: 0,
  runDeadlineAt: 0,
  random: undefined as unknown as Random,
  retryAfter: undefined,
  delays: undefined,
};

/** The ending at each terminal placement, one per placement, made when first reached. */
const AT_TERMINAL = new WeakMap<CompiledPlacement, Ending>();

/** The ending of an item that reached terminal `at`: the same object for every item that reaches it. */
function terminalEnding(at: CompiledPlacement): Ending {
  let ending = AT_TERMINAL.get(at);
  if (ending === undefined) {
    const outcome = (at.placement as TerminalPlacement).outcome;
    ending = { kind: 'terminal', placement: at.key, outcome };
    AT_TERMINAL.set(at, ending);
  }
  return ending;
}

/** The moves to each placement with no wait, one per placement, made when first taken. */
const AT_ONCE = new WeakMap<CompiledPlacement, Move>();

/** The move to `to` at once, for no reason: the same object for every item that takes it. */
function atOnce(to: CompiledPlacement): Move {
  let move = AT_ONCE.get(to);
  if (move === undefined) {
    move = { kind: 'move', to, delayMs: 0, reason: undefined };
    AT_ONCE.set(to, move);
  }
  return move;
}
