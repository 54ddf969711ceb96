import type { ScatterPlacement } from '../document/model.ts';
import type { CompiledPlacement } from '../graph/compile.ts';
import { copyJson } from './copy.ts';
import { type ClassifiedError, engineError, summarise } from './error-summary.ts';
import type { ErrorSummary } from './events.ts';
import { isThenable } from './execute.ts';
import type { ChildResult } from './gather.ts';
import { countVisit, createItemState, type ItemState } from './item-state.ts';
import { getPointer } from './pointer.ts';
import type { Prepared } from './prepare.ts';
import type { Ending, RunContext } from './runner.ts';
import { runTask, type TaskOutcome } from './task.ts';

/** Outputs of a scatter body node that mark the child as failed; every other output completes it. */
const FAILED_BODY_OUTPUTS: ReadonlySet<string> = new Set(['failed', 'error']);

/**
 * Fans the array at the scatter's `items` pointer out into child items and runs them, at most the
 * placement's `concurrency` at a time. Child `i` of item `1` is item `1.i`, with data `{ item, index }`, where
 * `item` is a deep copy of the list element (a child's changes never reach the parent's list).
 *
 * - Node body: the node runs once for the child (no routes inside the body; the placement's deadline
 *   applies to each execution); an output in
 *   {@link FAILED_BODY_OUTPUTS} or a thrown error fails the child, any other output completes it.
 * - Sub-DAG body (`dag`): the child runs from the document's first entrypoint with fresh budgets and
 *   completes or fails with the terminal it reaches; an engine failure fails it.
 *
 * A child's value is what it left in `data.result` (null when absent). Not an array at `items` → an
 * `E_INPUT` error outcome (the scatter's `error` route, if any).
 */
export async function runScatter(
  run: RunContext,
  prep: Prepared,
  at: CompiledPlacement,
  state: ItemState,
): Promise<{ readonly results: ChildResult[] } | { readonly error: ClassifiedError }> {
  const placement = at.placement as ScatterPlacement;
  const list = getPointer(state.data, placement.items);
  if (!Array.isArray(list)) {
    const message = `scatter '${at.key}' expects an array at '${placement.items}' in the item's data, found ${list === undefined ? 'nothing' : typeof list}; put the list there before the scatter`;
    return { error: engineError('E_INPUT', message) };
  }
  let body: Prepared | undefined;
  if (placement.dag !== undefined) {
    body = run.env.prepareIri(placement.dag);
    if (body === undefined) {
      const message = `scatter '${at.key}' runs DAG '${placement.dag}', which is not in the library; pass it in createDispatcher({ library })`;
      return { error: engineError('E_UNKNOWN_DAG', message) };
    }
  }

  const job = new ScatterJob(run, prep, at, state, list, body);
  const limit = Math.max(1, Math.min(list.length, prep.timings[at.index]?.concurrency ?? list.length));
  const workers: Promise<void>[] = [];
  for (let w = 0; w < limit; w++) workers.push(job.work());
  await Promise.all(workers);
  return { results: job.results };
}

/** One scatter execution: hands out child indices to the workers and records each child's result. */
class ScatterJob {
  readonly results: ChildResult[];
  private next = 0;
  private order = 0;

  constructor(
    private readonly run: RunContext,
    private readonly prep: Prepared,
    private readonly at: CompiledPlacement,
    private readonly parent: ItemState,
    private readonly list: readonly unknown[],
    private readonly body: Prepared | undefined,
  ) {
    this.results = new Array(list.length);
  }

  /** One worker: runs children one after another until none is left. */
  async work(): Promise<void> {
    const n = this.list.length;
    while (this.next < n) {
      // Once the run is stopped no worker starts another child.
      if (this.run.stopReason !== undefined) throw this.run.signal.reason;
      const index = this.next++;
      const item = copyJson(this.list[index]);
      const child = createItemState(`${this.parent.id}.${index}`, { item, index });
      if (this.body === undefined) {
        const pending = bodyOutcome(this.run, this.prep, this.at, child);
        this.fromOutcome(index, child, isThenable<TaskOutcome>(pending) ? await pending : pending);
      } else {
        this.fromEnding(index, child, await this.runSubDag(this.body, child));
      }
    }
  }

  private runSubDag(body: Prepared, child: ItemState): Promise<Ending> | Ending {
    const entry = body.compiled.entrypoints[0];
    if (entry === undefined) {
      const error = engineError(
        'E_DANGLING_ENTRYPOINT',
        `DAG '${body.compiled.dag.id}' has no entrypoint; declare one`,
      );
      return { kind: 'failed', placement: '', error };
    }
    return this.run.drive(body, child, entry);
  }

  private fromEnding(index: number, child: ItemState, ending: Ending): void {
    if (ending.kind === 'stopped') throw this.run.signal.reason;
    if (ending.kind === 'terminal') this.record(index, child, ending.outcome, ending.placement, undefined);
    else this.record(index, child, 'failed', undefined, summarise(ending.error));
  }

  private fromOutcome(index: number, child: ItemState, outcome: TaskOutcome): void {
    if ('error' in outcome) this.record(index, child, 'failed', undefined, summarise(outcome.error));
    else
      this.record(
        index,
        child,
        FAILED_BODY_OUTPUTS.has(outcome.output) ? 'failed' : 'completed',
        undefined,
        undefined,
      );
  }

  private record(
    index: number,
    child: ItemState,
    status: 'completed' | 'failed',
    terminal: string | undefined,
    error: ErrorSummary | undefined,
  ): void {
    const value = child.data.result ?? null;
    const order = this.order++;
    const result: { -readonly [K in keyof ChildResult]: ChildResult[K] } = { index, status, value, order };
    if (terminal !== undefined) result.terminal = terminal;
    if (error !== undefined) result.error = error;
    this.results[index] = result;
  }
}

/** Runs the scatter's body node for one child, with the placement's events. */
function bodyOutcome(
  run: RunContext,
  prep: Prepared,
  at: CompiledPlacement,
  child: ItemState,
): TaskOutcome | Promise<TaskOutcome> {
  const ev = run.events;
  const dagId = prep.compiled.dag.id;
  const visit = countVisit(child, at.key);
  const started = ev ? run.placementStart(ev, child.id, dagId, at.key, visit) : 0;
  const end = (outcome: TaskOutcome): TaskOutcome => {
    if (ev) {
      const error = 'error' in outcome ? summarise(outcome.error) : undefined;
      const output = 'error' in outcome ? 'error' : outcome.output;
      run.placementEnd(ev, child.id, dagId, at.key, output, started, error);
    }
    return outcome;
  };
  const pending = runTask(run, prep, at, child, visit);
  return isThenable<TaskOutcome>(pending) ? pending.then(end) : end(pending);
}
