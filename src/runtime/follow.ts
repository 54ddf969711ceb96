import type { CompiledPlacement } from '../graph/compile.ts';
import { resetBudgets, spend } from './budgets.ts';
import type { Decision } from './decide.ts';
import type { EventStream } from './event-stream.ts';
import type { ItemState } from './item-state.ts';
import type { RunContext } from './runner.ts';

function opt(reason: string | undefined): { reason?: string } {
  return reason === undefined ? {} : { reason };
}

/** Carries out a go / wait / exhausted decision: spends, resets, trail, counters and events; returns the next placement. */
export function follow(
  run: RunContext,
  dagId: string,
  state: ItemState,
  at: CompiledPlacement,
  decision: Exclude<Decision, { type: 'fail' }>,
): CompiledPlacement {
  const ev = run.events;
  const { route, target, output, reason } = decision;
  const base = { item: state.id, dag: dagId };
  if (decision.type === 'go') {
    state.trail.push({ placement: at.key, output, to: target.key, kind: route.kind });
    if (ev)
      ev.emit({
        type: 'route',
        ...base,
        from: at.key,
        output,
        to: target.key,
        kind: route.kind,
        ...opt(reason),
      });
    if (route.kind === 'salvage') salvaged(run, ev, base, at.key, target.key, reason);
    return target;
  }
  if (decision.type === 'wait') {
    spend(state, decision.budget);
    if (route.route.resets !== undefined) resetBudgets(state, route.route.resets);
    state.trail.push({ placement: at.key, output, to: target.key, kind: 'retry' });
    run.retries++;
    if (ev) {
      const { budget, attempt, delayMs, delaySource } = decision;
      ev.emit({
        type: 'route',
        ...base,
        from: at.key,
        output,
        to: target.key,
        kind: 'retry',
        ...opt(reason),
      });
      ev.emit({
        type: 'retry.scheduled',
        ...base,
        from: at.key,
        to: target.key,
        budget,
        attempt,
        delayMs,
        delaySource,
        ...opt(reason),
      });
    }
    return target;
  }
  run.exhausted++;
  state.trail.push({ placement: at.key, output, to: target.key, kind: 'exhausted' });
  if (ev) {
    const why = decision.why;
    ev.emit({
      type: 'budget.exhausted',
      ...base,
      from: at.key,
      budget: decision.budget,
      to: target.key,
      why,
      ...opt(reason),
    });
    ev.emit({
      type: 'route',
      ...base,
      from: at.key,
      output,
      to: target.key,
      kind: 'exhausted',
      ...opt(reason),
    });
  }
  if (target.placement.kind !== 'terminal') salvaged(run, ev, base, at.key, target.key, reason);
  return target;
}

function salvaged(
  run: RunContext,
  ev: EventStream | undefined,
  base: { item: string; dag: string },
  from: string,
  to: string,
  reason: string | undefined,
): void {
  run.salvages++;
  if (ev) ev.emit({ type: 'salvage', ...base, from, to, ...opt(reason) });
}
