import type { Clock } from '../policy/types.ts';
import { engineError } from '../runtime/error-summary.ts';
import { type EventBody, EventStream } from '../runtime/event-stream.ts';
import type { RunEvent } from '../runtime/events.ts';
import { type ItemState, restoreItemState } from '../runtime/item-state.ts';
import type { Prepared } from '../runtime/prepare.ts';
import type { WaitingFor } from '../runtime/run.ts';
import { type Ending, RunContext, type RunEnvironment } from '../runtime/runner.ts';
import type { RunSpans } from '../telemetry/run-spans.ts';
import type { Tracing } from '../telemetry/tracing.ts';
import type { RunKeys } from './keys.ts';
import { endingReport, eventText, type JoinedEvents, type Report, runIdTail } from './report.ts';
import type { LoadedSpec } from './run-spec.ts';

/** A run as a worker knows it: its spec, its environment and its prepared DAG. */
export interface KnownRun {
  readonly spec: LoadedSpec;
  readonly env: RunEnvironment;
  readonly prep: Prepared;
  /** The run's Redis keys, made once per run and worker. */
  readonly keys: RunKeys;
}

/**
 * What one job runs in: a {@link RunContext} of the run (its counters start at 0 for this job), whose
 * events are kept for the job's report. The run deadline, a wall time in the spec, becomes this process's
 * clock time.
 */
export class JobScope {
  readonly run: RunContext;
  private readonly stream: JobEvents;

  constructor(
    readonly known: KnownRun,
    readonly runId: string,
    readonly clock: Clock,
  ) {
    const stream = new JobEvents(runId, () => clock.now());
    this.stream = stream;
    const deadlineAt = known.spec.deadlineAt;
    this.run = new RunContext(
      known.env,
      stream,
      deadlineAt === undefined ? Number.POSITIVE_INFINITY : clock.now() + (deadlineAt - clock.wallNow()),
    );
    this.run.runId = runId;
  }

  /**
   * Has the job's events make spans in the trace of the run's span (`traceparent`, from the run's spec),
   * and its nodes called inside them; the caller flushes them once the job is done.
   */
  traced(tracing: Tracing, traceparent: string): RunSpans {
    const dag = this.known.prep.compiled.dag;
    const spans = tracing.runSpans({
      runId: this.runId,
      dagIri: dag.id,
      dagName: dag.name || dag.id,
      clock: this.clock,
      traceparent,
      scope: 'items',
    });
    this.stream.stamped(spans.listener);
    this.run.tracing = spans;
    return spans;
  }

  /** True once the run deadline has passed. */
  get pastDeadline(): boolean {
    const deadlineAt = this.known.spec.deadlineAt;
    return deadlineAt !== undefined && this.clock.wallNow() >= deadlineAt;
  }

  /**
   * Fails the item on the run deadline, as an in-process run fails an item it stopped there while it waited
   * for `waitingFor`.
   */
  deadlineEnding(
    prep: Prepared,
    state: ItemState,
    placement: string,
    waitingFor: WaitingFor = 'backoff',
  ): Ending {
    const message = `the run deadline passed while item ${state.id} was at '${placement}' (waiting for ${waitingFor}); raise the run deadline`;
    return this.run.failed(
      prep.compiled.dag.id,
      state,
      placement,
      engineError('E_RUN_DEADLINE', message, 'timeout'),
    );
  }

  /** The prepared document an item is in: the run's, or a library document by IRI. */
  prepOf(dag: string | undefined): Prepared | undefined {
    return dag === undefined ? this.known.prep : this.known.env.prepareIri(dag);
  }

  /** The job's report: its events, its counters, and an input item's ending. */
  report(end?: { readonly ending: Ending; readonly state: ItemState }): Report {
    return {
      events: this.stream.texts(),
      tally: this.run.tally,
      ...(end === undefined ? {} : { end: { ending: endingReport(end.ending), state: end.state } }),
    };
  }
}

/**
 * A job's event stream: each event's body as the text a report carries (see `eventText`). Nobody else
 * listens to an untraced job, so its bodies are never stamped (the ledger numbers the events): they are
 * kept as they come and written out together, in one JSON text, when the report is made. A traced job's
 * events are stamped for its spans, and their text cut from the stamped event's.
 */
class JobEvents extends EventStream {
  /** The texts written so far, each of one event or of several joined by commas. */
  private readonly pieces: string[] = [];
  private written = 0;
  /** The bodies not written yet. */
  private readonly bodies: EventBody[] = [];
  private stamping = false;

  constructor(runId: string, now: () => number) {
    super(runId, now);
    this.active = true;
  }

  /** From now on, stamps each event and hands it to `listener` beside taking its text. */
  stamped(listener: (event: RunEvent) => unknown): void {
    if (!this.stamping) {
      this.stamping = true;
      this.writeBodies();
      const tail = runIdTail(this.runId);
      this.listen((event) => {
        this.pieces.push(eventText(event, tail));
        this.written++;
      });
    }
    this.listen(listener);
  }

  override emit(body: EventBody, time?: number): void {
    if (this.stamping) super.emit(body, time);
    else this.bodies.push(body);
  }

  /** The job's events so far, as a report carries them. */
  texts(): JoinedEvents {
    this.writeBodies();
    const { pieces } = this;
    return { count: this.written, text: pieces.length === 1 ? (pieces[0] as string) : pieces.join(',') };
  }

  /** Writes the kept bodies as one text: the list's JSON without its brackets. */
  private writeBodies(): void {
    const { bodies } = this;
    if (bodies.length === 0) return;
    try {
      this.pieces.push(JSON.stringify(bodies).slice(1, -1));
      this.written += bodies.length;
    } catch {
      for (const body of bodies) {
        try {
          this.pieces.push(JSON.stringify(body));
          this.written++;
        } catch {
          // A body JSON cannot write is left out, as a stream leaves out an event its listener threw on.
        }
      }
    }
    bodies.length = 0;
  }
}

/** An item's state from a job's JSON, in the null-prototype records the engine reads, with its place. */
export function revive(saved: ItemState): ItemState {
  const state = restoreItemState(saved);
  if (saved.root === undefined) return state;
  return { ...state, scope: saved.scope ?? '', root: saved.root, frames: saved.frames ?? [] };
}
