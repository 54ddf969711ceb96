import type { CompiledPlacement } from '../graph/compile.ts';
import { resetBudgets, spend } from './budgets.ts';
import type { Decision } from './decide.ts';
import type { EventStream } from './event-stream.ts';
import { addTrail, type ItemState } from './item-state.ts';
import type { RunContext } from './runner.ts';

/**
 * Carries out a go / wait / exhausted decision: spends, resets, trail, counters and events; returns the next
 * placement. `now` is the time of the decision, which its events carry.
 */
export function follow(
  run: RunContext,
  dagId: string,
  state: ItemState,
  at: CompiledPlacement,
  decision: Exclude<Decision, { type: 'fail' }>,
  now: number,
): CompiledPlacement {
  const ev = run.events;
  const { route, target, output, reason } = decision;
  const item = state.id;
  if (decision.type === 'go') {
    addTrail(state, { placement: at.key, output, to: target.key, kind: route.kind });
    if (ev)
      ev.emit(
        { type: 'route', item, dag: dagId, from: at.key, output, to: target.key, kind: route.kind, reason },
        now,
      );
    if (route.kind === 'salvage') salvaged(run, ev, item, dagId, at.key, target.key, reason, now);
    return target;
  }
  if (decision.type === 'wait') {
    spend(state, decision.budget);
    if (route.route.resets !== undefined) resetBudgets(state, route.route.resets);
    addTrail(state, { placement: at.key, output, to: target.key, kind: 'retry' });
    run.retries++;
    if (ev) {
      const { budget, attempt, delayMs, delaySource } = decision;
      ev.emit(
        { type: 'route', item, dag: dagId, from: at.key, output, to: target.key, kind: 'retry', reason },
        now,
      );
      ev.emit(
        {
          type: 'retry.scheduled',
          item,
          dag: dagId,
          from: at.key,
          output,
          to: target.key,
          budget,
          attempt,
          delayMs,
          delaySource,
          reason,
        },
        now,
      );
    }
    return target;
  }
  run.exhausted++;
  addTrail(state, { placement: at.key, output, to: target.key, kind: 'exhausted' });
  if (ev) {
    const why = decision.why;
    ev.emit(
      {
        type: 'budget.exhausted',
        item,
        dag: dagId,
        from: at.key,
        budget: decision.budget,
        to: target.key,
        why,
        reason,
      },
      now,
    );
    ev.emit(
      { type: 'route', item, dag: dagId, from: at.key, output, to: target.key, kind: 'exhausted', reason },
      now,
    );
  }
  if (target.placement.kind !== 'terminal') salvaged(run, ev, item, dagId, at.key, target.key, reason, now);
  return target;
}

function salvaged(
  run: RunContext,
  ev: EventStream | undefined,
  item: string,
  dag: string,
  from: string,
  to: string,
  reason: string | undefined,
  now: number,
): void {
  run.salvages++;
  if (ev) ev.emit({ type: 'salvage', item, dag, from, to, reason }, now);
}
