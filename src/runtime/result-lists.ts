/**
 * The three lists every run result sorts its input items into, and the count per terminal: one builder for
 * the run in one process and the run carried by distributed workers, so both results have the same shape.
 */
import type { ErrorSummary } from './events.ts';
import type { ItemState } from './item-state.ts';
import { emptyRecord, ownValue } from './record.ts';
import type { ItemAborted, ItemFailure, ItemResult, WaitingFor } from './run.ts';

/** Items as they ended, added in input order. */
export class ResultLists {
  readonly items: ItemResult[] = [];
  readonly failures: ItemFailure[] = [];
  readonly aborted: ItemAborted[] = [];
  /** Input items per terminal key (a null-prototype record). */
  readonly byTerminal = emptyRecord<number>();
  /** Items that ended at a `completed` terminal. */
  completed = 0;

  /** The item ended at terminal `placement`. */
  terminal(state: ItemState, placement: string, outcome: 'completed' | 'failed'): void {
    this.items.push({ id: state.id, terminal: placement, outcome, data: state.data, state });
    this.byTerminal[placement] = (ownValue(this.byTerminal, placement) ?? 0) + 1;
    if (outcome === 'completed') this.completed++;
  }

  /** The item is in the run's failure list. */
  failed(state: ItemState, placement: string, error: ErrorSummary): void {
    this.failures.push({ id: state.id, placement, error, state });
  }

  /** The run was stopped while the item was at `placement`. */
  stopped(state: ItemState, placement: string, waitingFor: WaitingFor): void {
    this.aborted.push({ item: state.id, placement, waitingFor, state });
  }
}
