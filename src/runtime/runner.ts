import type { Dag, DagLibrary } from '../document/model.ts';
import { isSwitchyardError } from '../errors.ts';
import type { CompiledPlacement } from '../graph/compile.ts';
import { unusableRetryAfter } from '../policy/retry-after.ts';
import type { Clock, Random, RuntimePolicy } from '../policy/types.ts';
import { sleepUnder } from './abort-watch.ts';
import { decide, type Outcome } from './decide.ts';
import { runEmbed } from './embed.ts';
import { type ClassifiedError, engineError, summarise } from './error-summary.ts';
import type { EventStream } from './event-stream.ts';
import type { ErrorSummary } from './events.ts';
import { isThenable } from './execute.ts';
import { follow } from './follow.ts';
import type { ChildResult } from './gather.ts';
import { reduceChildren } from './gather.ts';
import { countVisit, type ItemState } from './item-state.ts';
import { setPointer } from './pointer.ts';
import type { Prepared } from './prepare.ts';
import type { WaitingFor } from './run.ts';
import { RunScope } from './run-scope.ts';
import { runScatter } from './scatter.ts';
import { runTask, type TaskOutcome } from './task.ts';

/** How an item left a DAG: at a terminal, failed with an error, or stopped by an abort or the run deadline. */
export type Ending =
  | { readonly kind: 'terminal'; readonly placement: string; readonly outcome: 'completed' | 'failed' }
  | { readonly kind: 'failed'; readonly placement: string; readonly error: ClassifiedError }
  | { readonly kind: 'stopped'; readonly placement: string; readonly waitingFor: WaitingFor };

/** What a run needs from its dispatcher. */
export interface RunEnvironment {
  readonly services: unknown;
  readonly policy: RuntimePolicy;
  readonly clock: Clock;
  readonly random: Random;
  readonly library: DagLibrary | undefined;
  /** The prepared form of a library document, or undefined when the library lacks it. */
  prepareIri(iri: string): Prepared | undefined;
  /** The prepared form of a model. */
  prepareDag(dag: Dag): Prepared;
}

/**
 * One run as its items see it: the shared state of a {@link RunScope} (counters, signal, semaphores), and
 * the loop that moves one item from placement to placement, carrying out what {@link decide} says.
 */
export class RunContext extends RunScope {
  declare readonly root: RunContext;

  /**
   * A scope of this context whose signal also aborts when `cancel` does: the items driven in it stop where
   * they stand (an ending of kind `stopped`), while the rest of the run goes on.
   */
  cancellable(cancel: AbortSignal): RunContext {
    return new RunContext(this.env, this.events, this.runDeadlineAt, { run: this, cancel });
  }

  /** Emits `placement.start` on `ev` (the caller checks `events` first) and returns its time, for {@link placementEnd}. */
  placementStart(ev: EventStream, item: string, dag: string, placement: string, visit: number): number {
    const now = this.clock.now();
    ev.emit({ type: 'placement.start', item, dag, placement, visit }, now);
    return now;
  }

  /** Emits `placement.end` on `ev`, measuring from `started` (what {@link placementStart} returned) to `now`. */
  placementEnd(
    ev: EventStream,
    item: string,
    dag: string,
    placement: string,
    output: string,
    started: number,
    error: ErrorSummary | undefined,
    now: number = this.clock.now(),
  ): void {
    const durationMs = now - started;
    ev.emit(
      error === undefined
        ? { type: 'placement.end', item, dag, placement, output, durationMs }
        : { type: 'placement.end', item, dag, placement, output, durationMs, error },
      now,
    );
  }

  /**
   * Moves one item from `start` until it ends. Never rejects: failures, aborts, the run deadline and errors
   * of the engine itself (`E_ENGINE`, or the code of a thrown SwitchyardError) all come back as an
   * {@link Ending}.
   */
  async drive(prep: Prepared, state: ItemState, start: CompiledPlacement): Promise<Ending> {
    const compiled = prep.compiled;
    const dagId = compiled.dag.id;
    const ev = this.events;
    let at = start;
    let waiting: WaitingFor = 'queue';
    let gathered: readonly ChildResult[] | undefined;
    let previousDelays: Map<string, number> | undefined;
    try {
      for (;;) {
        if (this.stopReason !== undefined) return this.stopped(dagId, state, at.key, waiting);
        const placement = at.placement;
        if (placement.kind === 'terminal') {
          countVisit(state, at.key);
          if (ev)
            ev.emit({
              type: 'item.end',
              item: state.id,
              dag: dagId,
              terminal: at.key,
              outcome: placement.outcome,
            });
          return { kind: 'terminal', placement: at.key, outcome: placement.outcome };
        }

        let outcome: TaskOutcome | Outcome;
        let started = 0;
        if (placement.kind === 'task') {
          const semaphore = this.semaphoreOf(prep, at);
          if (semaphore !== undefined && !semaphore.tryAcquire()) {
            waiting = 'queue';
            await semaphore.acquire(this.signal);
          }
          waiting = 'node';
          try {
            const visit = countVisit(state, at.key);
            if (ev) started = this.placementStart(ev, state.id, dagId, at.key, visit);
            const pending = runTask(this, prep, at, state, visit);
            outcome = isThenable<TaskOutcome>(pending) ? await pending : pending;
          } finally {
            semaphore?.release();
          }
        } else {
          waiting = 'node';
          const visit = countVisit(state, at.key);
          if (ev) started = this.placementStart(ev, state.id, dagId, at.key, visit);
          if (placement.kind === 'scatter') {
            const children = await runScatter(this, prep, at, state);
            if ('error' in children) outcome = children;
            else {
              gathered = children.results;
              outcome = { output: 'done' };
            }
          } else if (placement.kind === 'gather') {
            const reduced = reduceChildren(placement, gathered ?? []);
            gathered = undefined;
            state.data = setPointer(state.data, placement.into, reduced.value);
            outcome = { output: reduced.output };
          } else if (placement.kind === 'embed') {
            outcome = await runEmbed(this, at, state);
          } else {
            // Phases are not on item paths: the dispatcher refuses documents that route to them
            // (E_ENTRYPOINT_KIND, E_DANGLING_ROUTE); an item sent to one anyway takes `done`.
            outcome = { output: 'done' };
          }
        }

        const timing = prep.timings[at.index] ?? this.env.policy.defaults;
        let hint: unknown = 'retryAfter' in outcome ? outcome.retryAfter : undefined;
        if (hint !== undefined) hint = this.usableHint(hint, state.id, dagId, at.key, 'returned');
        else if ('error' in outcome && outcome.error.retryAfter !== undefined)
          this.usableHint(outcome.error.retryAfter, state.id, dagId, at.key, 'threw an error with');
        const now = this.clock.now();
        // Only an HTTP-date needs the wall clock; reading it on every decision would cost every run.
        const wallNow =
          hint !== undefined || ('error' in outcome && outcome.error.retryAfter !== undefined)
            ? this.clock.wallNow()
            : now;
        const decision = decide(
          at,
          compiled.budgets,
          state,
          outcome,
          timing,
          now,
          this.runDeadlineAt,
          this.env.random,
          hint,
          previousDelays === undefined ? undefined : previousDelayOf(previousDelays, at, outcome),
          wallNow,
        );
        if (ev) {
          const error = 'error' in outcome ? summarise(outcome.error) : undefined;
          this.placementEnd(ev, state.id, dagId, at.key, decision.output, started, error, now);
        }
        if (decision.type === 'fail') return this.failed(dagId, state, at.key, decision.error);
        if (decision.type === 'wait') {
          previousDelays ??= new Map();
          previousDelays.set(decision.budget, decision.delayMs);
        }
        // From here the item belongs to its next placement: an abort during the back-off reports it there.
        at = follow(this, dagId, state, at, decision, now);
        if (decision.type === 'wait' && decision.delayMs > 0) {
          waiting = 'backoff';
          await sleepUnder(this.clock, decision.delayMs, this.signal);
        }
        waiting = 'queue';
      }
    } catch (error) {
      if (this.stopReason !== undefined) return this.stopped(dagId, state, at.key, waiting);
      return this.failed(dagId, state, at.key, engineFailure(error, at.key));
    }
  }

  /**
   * A node's Retry-After hint if it is usable, else undefined (the back-off applies) after a `warning` event
   * saying why: a node's malformed hint is its author's mistake to hear about, not a reason to fail the item.
   */
  usableHint(hint: unknown, item: string, dag: string, placement: string, how: string): unknown {
    const why = unusableRetryAfter(hint);
    if (why === undefined) return hint;
    if (this.events) {
      const message = `the node at placement '${placement}' ${how} retryAfter ${why}; the back-off applies instead — give milliseconds (a number ≥ 0) or a Retry-After header value`;
      this.events.emit({ type: 'warning', code: 'W_RETRY_AFTER_IGNORED', item, dag, placement, message });
    }
    return undefined;
  }

  /**
   * An item stopped where it stood. A cancelled scope's items are reported here (`item.cancelled`), since
   * the run goes on without them; the run's result reports the items an abort or the deadline stopped.
   */
  stopped(dagId: string, state: ItemState, placement: string, waitingFor: WaitingFor): Ending {
    if (this.events && this.stopReason === 'cancel') {
      this.events.emit({ type: 'item.cancelled', item: state.id, dag: dagId, placement, waitingFor });
    }
    return { kind: 'stopped', placement, waitingFor };
  }

  /** An item that cannot go on: reported with its error (event), returned as an ending. */
  failed(dagId: string, state: ItemState, placement: string, error: ClassifiedError): Ending {
    if (this.events) {
      this.events.emit({
        type: 'item.failed',
        item: state.id,
        dag: dagId,
        placement,
        error: summarise(error),
      });
    }
    return { kind: 'failed', placement, error };
  }
}

/** The previous delay of the budget the outcome's route spends, for decorrelated back-off. */
function previousDelayOf(
  delays: ReadonlyMap<string, number>,
  at: CompiledPlacement,
  outcome: TaskOutcome | Outcome,
): number | undefined {
  const output = 'output' in outcome ? outcome.output : 'retry';
  const budget = at.routes.get(output)?.route.budget;
  return budget === undefined ? undefined : delays.get(budget);
}

/** An error the engine threw while moving an item (not a node's error), as the item's failure. */
function engineFailure(error: unknown, placement: string): ClassifiedError {
  if (isSwitchyardError(error)) return engineError(error.code, error.message);
  const reason = error instanceof Error ? error.message : String(error);
  const message = `the engine failed at placement '${placement}': ${reason}; report this with the DAG and input that caused it`;
  return engineError('E_ENGINE', message);
}
