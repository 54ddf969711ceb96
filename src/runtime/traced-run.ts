import type { RunSpans } from '../telemetry/run-spans.ts';
import type { Tracing } from '../telemetry/tracing.ts';
import type { EventStream } from './event-stream.ts';
import type { Prepared } from './prepare.ts';
import type { RunEnvironment } from './runner.ts';

/** A run's spans and the `traceparent` of its span, which a durable run records. */
export interface TracedRun {
  readonly spans: RunSpans;
  readonly traceparent: string | undefined;
}

/**
 * Starts the spans of a run (or of its resume) and has them made from `stream`'s events. `traceparent`
 * (recorded with the run) makes the run's span a child of the span it names, in its trace.
 */
export function traceRun(
  tracing: Tracing,
  stream: EventStream,
  env: RunEnvironment,
  prep: Prepared,
  traceparent: string | undefined,
): TracedRun {
  const dag = prep.compiled.dag;
  const spans = tracing.runSpans({
    runId: stream.runId,
    dagIri: dag.id,
    dagName: dag.name || dag.id,
    clock: env.clock,
    traceparent,
    deadlineOf: (iri, key) => {
      const within = iri === dag.id ? prep : env.prepareIri(iri);
      const at = within?.compiled.byKey.get(key);
      return at === undefined ? undefined : within?.timings[at.index]?.deadlineMs;
    },
  });
  stream.listen(spans.listener);
  return { spans, traceparent: tracing.traceParentOf(spans) };
}

/** `result`, with the run's span ended with its error when the run failed before its `run.end`. */
export function endingTraced<T>(traced: TracedRun, result: Promise<T>): Promise<T> {
  return result.catch((error: unknown) => {
    traced.spans.abandon(error);
    throw error;
  });
}
