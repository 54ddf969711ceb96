import type { Budget } from '../document/model.ts';
import type { CompiledPlacement, CompiledRoute } from '../graph/compile.ts';
import { backoffDelay } from '../policy/backoff.ts';
import { effectiveRetryAfter, parseRetryAfter } from '../policy/retry-after.ts';
import type { Random, TimingPolicy } from '../policy/types.ts';
import { spent } from './budgets.ts';
import { type ClassifiedError, engineError } from './error-summary.ts';
import type { ItemState } from './item-state.ts';

/** What a placement produced for an item: an output (with an optional reason), or a classified error. */
export type Outcome =
  | { readonly output: string; readonly reason?: string | undefined }
  | { readonly error: ClassifiedError };

/** Take `route` to `target` now. */
export interface GoDecision {
  readonly type: 'go';
  readonly output: string;
  readonly route: CompiledRoute;
  readonly target: CompiledPlacement;
  readonly reason: string | undefined;
}

/** Spend one unit of `budget` (count becomes `attempt`), wait `delayMs`, then take `route` to `target`. */
export interface WaitDecision {
  readonly type: 'wait';
  readonly output: string;
  readonly route: CompiledRoute;
  readonly target: CompiledPlacement;
  readonly budget: string;
  readonly attempt: number;
  readonly delayMs: number;
  readonly delaySource: 'backoff' | 'retry-after';
  readonly reason: string | undefined;
}

/** The retry route cannot be taken (budget spent, or the wait would pass the run deadline): go to `target`. */
export interface ExhaustedDecision {
  readonly type: 'exhausted';
  readonly output: string;
  readonly route: CompiledRoute;
  readonly target: CompiledPlacement;
  readonly budget: string;
  readonly why: 'spent' | 'deadline';
  readonly reason: string | undefined;
}

/** The item cannot go on: it ends in the run's failure list with `error`. */
export interface FailDecision {
  readonly type: 'fail';
  readonly output: string;
  readonly error: ClassifiedError;
}

/** The effect the dispatcher carries out for one outcome. */
export type Decision = GoDecision | WaitDecision | ExhaustedDecision | FailDecision;

/** The output a thrown error takes: `retry` when retryable and routed, else `error` when routed, else none. */
function outputForError(at: CompiledPlacement, error: ClassifiedError): string | undefined {
  if (error.retryable && at.routes.has('retry')) return 'retry';
  if (at.routes.has('error')) return 'error';
  return undefined;
}

/**
 * What {@link decide} needs besides the placement, the item and the outcome: the placement's timing, the
 * document's budgets, the clock's readings, the run deadline, the random source, and what the item carries
 * from earlier decisions. Plain values only: deciding reads no clock and draws from no source but `random`.
 */
export interface DecideContext {
  /** The placement's timing (back-off, jitter, Retry-After handling), from the runtime policy. */
  readonly timing: TimingPolicy;
  /** The budgets the document declares, indexed as a compiled route's `budget`. */
  readonly budgets: readonly Budget[];
  /** The monotonic clock reading the decision is taken at; the run deadline is on the same clock. */
  readonly now: number;
  /** The wall-clock reading (ms since the Unix epoch) an HTTP-date Retry-After is measured from; default `now`. */
  readonly wallNow?: number | undefined;
  /** When the run's time ends, on the clock of `now`; `Infinity` for a run without a deadline. */
  readonly runDeadlineAt: number;
  /** The source of jitter (and of a decorrelated back-off's spread). */
  readonly random: Random;
  /**
   * A Retry-After hint the node returned with its output; without one, a thrown error's own `retryAfter`
   * applies. An unusable hint is ignored (see `unusableRetryAfter`).
   */
  readonly retryAfter?: unknown;
  /** The last delay waited per budget name: a decorrelated back-off grows from the previous delay. */
  readonly delays?: ReadonlyMap<string, number> | undefined;
}

/**
 * Decides where an item goes after a placement: a pure function of the compiled placement, the item's state,
 * the outcome and a {@link DecideContext} (the placement's timing, the clock's readings, randomness only
 * through `ctx.random`, for jitter).
 *
 * - an output with a `next`/`salvage` route → go;
 * - an output with a `retry` route that spends no budget → fail with `E_RETRY_WITHOUT_BUDGET`;
 * - an output with a `retry` route → wait (Retry-After hint if honoured, else back-off) then go, unless the
 *   budget is spent (exhausted, `spent`) or the wait would not end before `ctx.runDeadlineAt` (exhausted,
 *   `deadline`: a wait ending exactly at the deadline leaves the target no time to run);
 * - a hint that is not a usable Retry-After (see `unusableRetryAfter`) is ignored: the back-off applies;
 * - a thrown error → its `retry` route when retryable, else its `error` route, else fail;
 * - an output with no route → fail with `E_UNROUTED_OUTPUT`.
 *
 * @example
 * const ctx = { timing, budgets: compiled.budgets, now: 0, runDeadlineAt: Infinity, random: seededRandom(1) };
 * const d = decide(compiled.byKey.get('validate')!, state, { output: 'invalid' }, ctx);
 */
export function decide(
  at: CompiledPlacement,
  state: ItemState,
  outcome: Outcome,
  ctx: DecideContext,
): Decision {
  let output: string;
  let reason: string | undefined;
  let hint = ctx.retryAfter;
  if ('error' in outcome) {
    const chosen = outputForError(at, outcome.error);
    if (chosen === undefined) return { type: 'fail', output: 'error', error: outcome.error };
    output = chosen;
    reason = outcome.error.message;
    if (hint === undefined) hint = outcome.error.retryAfter;
  } else {
    output = outcome.output;
    reason = outcome.reason;
  }

  const route = at.routes.get(output);
  if (route === undefined) {
    const message = `placement '${at.key}' took output '${output}', which has no route; add a route for '${output}' to the document or return another output`;
    return { type: 'fail', output, error: engineError('E_UNROUTED_OUTPUT', message) };
  }
  if (route.kind !== 'retry') return { type: 'go', output, route, target: route.target, reason };
  if (route.budget < 0) {
    const message = `retry route '${at.key}' → '${route.target.key}' spends no budget, so it could loop forever; add "budget" to the route`;
    return { type: 'fail', output, error: engineError('E_RETRY_WITHOUT_BUDGET', message) };
  }

  const declared = ctx.budgets[route.budget];
  const budget = declared?.name ?? String(route.route.budget);
  const max = declared?.max ?? 0;
  const count = spent(state, budget);
  if (count >= max) return exhausted(output, route, budget, 'spent', reason);

  const attempt = count + 1;
  const timing = ctx.timing;
  let delayMs: number | undefined;
  let delaySource: 'backoff' | 'retry-after' = 'backoff';
  if (hint !== undefined) {
    const hintMs = parseRetryAfter(hint, ctx.wallNow ?? ctx.now);
    delayMs = effectiveRetryAfter(hintMs, timing.retryAfter);
    if (delayMs !== undefined) delaySource = 'retry-after';
  }
  if (delayMs === undefined)
    delayMs = backoffDelay(attempt, timing.backoff, timing.jitter, ctx.random, ctx.delays?.get(budget));
  if (ctx.now + delayMs >= ctx.runDeadlineAt) return exhausted(output, route, budget, 'deadline', reason);
  return { type: 'wait', output, route, target: route.target, budget, attempt, delayMs, delaySource, reason };
}

function exhausted(
  output: string,
  route: CompiledRoute,
  budget: string,
  why: 'spent' | 'deadline',
  reason: string | undefined,
): Decision {
  if (route.exhausted === undefined) {
    const message = `retry route '${route.from.key}' → '${route.target.key}' has no exhaustion placement; add "exhausted" to the route`;
    return { type: 'fail', output, error: engineError('E_RETRY_WITHOUT_EXHAUSTION', message) };
  }
  return { type: 'exhausted', output, route, target: route.exhausted, budget, why, reason };
}
