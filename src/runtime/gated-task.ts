/**
 * An execution under a gate of the policy: it waits at the gate's key before its node is called, gives its
 * place back once the node answered, and closes the key for everyone when the answer is a rate-limit one.
 * The wait spends no budget; it counts against the placement's deadline (an item still waiting when the
 * deadline passes routes as a timeout) and the run's (the run's signal ends the wait).
 */
import { SwitchyardError } from '../errors.ts';
import type { GateLate, GatePass } from '../gates/gates.ts';
import { isPass } from '../gates/gates.ts';
import { closesGate, closingMs } from '../gates/gcra.ts';
import { gateRef } from '../gates/resolve.ts';
import type { GatePolicy, GateRef } from '../gates/types.ts';
import type { CompiledPlacement } from '../graph/compile.ts';
import { parseRetryAfter } from '../policy/retry-after.ts';
import { engineError } from './error-summary.ts';
import { isThenable } from './execute.ts';
import type { ItemState } from './item-state.ts';
import type { NodeDefinition } from './node.ts';
import type { Prepared } from './prepare.ts';
import type { RunContext } from './runner.ts';
import { classifyThrown, type TaskOutcome } from './task.ts';

/** Calls the node, bounded by what is left of the placement's deadline (undefined: none). */
export type Call = (deadlineMs: number | undefined) => TaskOutcome | Promise<TaskOutcome>;

/** Runs `call` once the item is through gate `gate` of placement `at`. */
export function throughGate(
  run: RunContext,
  prep: Prepared,
  at: CompiledPlacement,
  state: ItemState,
  node: NodeDefinition,
  gate: GatePolicy,
  call: Call,
): TaskOutcome | Promise<TaskOutcome> {
  let ref: GateRef;
  try {
    ref = gateRef(gate, node.gateKey?.(state));
  } catch (error) {
    if (error instanceof SwitchyardError && error.code === 'E_GATE_KEY') {
      return { error: engineError('E_GATE_KEY', `placement '${at.key}': ${error.message}`) };
    }
    return classifyThrown(run, error);
  }
  const deadlineMs = prep.timings[at.index]?.deadlineMs;
  const entered = run.env.gates.enter(ref, {
    events: run.events,
    signal: run.signal,
    item: state.id,
    dag: prep.compiled.dag.id,
    placement: at.key,
    latest: deadlineMs === undefined ? Number.POSITIVE_INFINITY : run.clock.wallNow() + deadlineMs,
  });
  const go = (through: GatePass | GateLate): TaskOutcome | Promise<TaskOutcome> => {
    if (!isPass(through)) return late(run, at, ref, deadlineMs ?? 0, through.waitedMs);
    let called: TaskOutcome | Promise<TaskOutcome>;
    try {
      called = call(deadlineMs === undefined ? undefined : Math.max(1, deadlineMs - through.waitedMs));
    } catch (error) {
      through.leave();
      throw error;
    }
    if (!isThenable<TaskOutcome>(called)) return answered(run, prep, at, state, ref, through, called);
    return called.then(
      (outcome) => answered(run, prep, at, state, ref, through, outcome),
      (error: unknown) => {
        through.leave();
        throw error;
      },
    );
  };
  return isThenable<GatePass | GateLate>(entered) ? entered.then(go) : go(entered);
}

/** The outcome of an item whose placement deadline passed at the gate: a timeout, routed as one. */
function late(
  run: RunContext,
  at: CompiledPlacement,
  ref: GateRef,
  deadlineMs: number,
  waitedMs: number,
): TaskOutcome {
  const error = new SwitchyardError(
    'E_DEADLINE',
    `placement '${at.key}' waited ${Math.round(waitedMs)} ms at gate '${ref.key}' and did not start within its ${deadlineMs} ms deadline; raise deadlineMs in the policy or loosen the gate's limits`,
  );
  return classifyThrown(run, error);
}

/**
 * Closes the gate's key on a rate-limit answer, then gives the item's place at the gate back: in that order,
 * so that the waiter the place goes to finds the key closed rather than calling into the rate limit.
 */
function answered(
  run: RunContext,
  prep: Prepared,
  at: CompiledPlacement,
  state: ItemState,
  ref: GateRef,
  through: GatePass,
  outcome: TaskOutcome,
): TaskOutcome | Promise<TaskOutcome> {
  let closed: void | Promise<void>;
  try {
    closed = closeOnRateLimit(run, prep, at, state, ref, outcome);
  } catch (error) {
    through.leave();
    throw error;
  }
  if (isThenable<void>(closed)) {
    return closed.then(
      () => leaving(through, outcome),
      (failure: unknown) => {
        through.leave();
        throw failure;
      },
    );
  }
  return leaving(through, outcome);
}

/** Gives the item's place at the gate back, and answers the outcome. */
function leaving(through: GatePass, outcome: TaskOutcome): TaskOutcome {
  through.leave();
  return outcome;
}

/**
 * Closes the gate's key when `outcome` is a rate-limit answer its gate pauses on; across workers the
 * closing is a Redis write, whose promise this answers.
 */
function closeOnRateLimit(
  run: RunContext,
  prep: Prepared,
  at: CompiledPlacement,
  state: ItemState,
  ref: GateRef,
  outcome: TaskOutcome,
): void | Promise<void> {
  if ('error' in outcome && ref.gate.pauseOnRetryAfter) {
    const error = outcome.error;
    const wallNow = run.clock.wallNow();
    const hint = error.retryAfter === undefined ? undefined : parseRetryAfter(error.retryAfter, wallNow);
    if (closesGate(ref.gate.closeOn, error.status, hint !== undefined)) {
      const timing = prep.timings[at.index] ?? run.env.policy.defaults;
      const hintMs = timing.retryAfter.honour ? hint : undefined;
      const backoffMs = Math.min(timing.backoff.baseMs, timing.backoff.capMs);
      const ms = closingMs(hintMs, backoffMs, ref.gate.maxClosedMs ?? timing.retryAfter.capMs);
      if (ms > 0) {
        return run.env.gates.close(ref, {
          untilMs: wallNow + ms,
          fromMs: wallNow,
          reason: `HTTP ${error.status}`,
          hintMs,
          events: run.events,
          item: state.id,
          dag: prep.compiled.dag.id,
          placement: at.key,
        });
      }
    }
  }
}
