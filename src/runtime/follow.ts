import type { CompiledPlacement } from '../graph/compile.ts';
import { resetBudgets, spend } from './budgets.ts';
import type { Decision } from './decide.ts';
import { addTrail } from './item-state.ts';
import type { RunContext } from './runner.ts';
import type { ItemAt } from './step.ts';

/**
 * Carries out a go / wait / exhausted decision: spends, resets, trail, counters and events; returns the next
 * placement. `now` is the time of the decision, which its events carry.
 */
export function follow(
  run: RunContext,
  { prep, state, at }: ItemAt,
  decision: Exclude<Decision, { type: 'fail' }>,
  now: number,
): CompiledPlacement {
  const dagId = prep.compiled.dag.id;
  const ev = run.events;
  const { route, target, output, reason } = decision;
  const item = state.id;
  const trail = state.root === undefined || run.childTrails;
  if (decision.type === 'go') {
    if (trail) addTrail(state, { placement: at.key, output, to: target.key, kind: route.kind });
    if (ev)
      ev.emit(
        { type: 'route', item, dag: dagId, from: at.key, output, to: target.key, kind: route.kind, reason },
        now,
      );
    if (route.kind === 'salvage') {
      run.count('salvages');
      if (ev) ev.emit({ type: 'salvage', item, dag: dagId, from: at.key, to: target.key, reason }, now);
    }
    return target;
  }
  if (decision.type === 'wait') {
    spend(state, decision.budget);
    if (route.route.resets !== undefined) resetBudgets(state, route.route.resets);
    if (trail) addTrail(state, { placement: at.key, output, to: target.key, kind: 'retry' });
    run.count('retries');
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
  run.count('exhausted');
  if (trail) addTrail(state, { placement: at.key, output, to: target.key, kind: 'exhausted' });
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
  // An exhaustion route to a recovery placement is a salvage; one straight to a terminal only ends the item.
  if (target.placement.kind !== 'terminal') {
    run.count('salvages');
    if (ev) ev.emit({ type: 'salvage', item, dag: dagId, from: at.key, to: target.key, reason }, now);
  }
  return target;
}
