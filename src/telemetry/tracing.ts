import type { Context, Tracer } from '@opentelemetry/api';
import type { Clock } from '../policy/types.ts';
import { VERSION } from '../version.ts';
import { loadOtelApi, type OtelApi } from './otel-api.ts';
import { RunSpans, type RunSpansOptions } from './run-spans.ts';
import type { TracerProviderLike } from './span-like.ts';
import { spanContextOf, traceParentOf } from './trace-parent.ts';

/** The instrumentation scope Switchyard's spans are made under. */
export const TRACER_NAME = 'switchyard';

/** What starting a run's spans needs. */
export interface RunTraceStart {
  readonly runId: string;
  readonly dagIri: string;
  readonly dagName: string;
  readonly clock: Clock;
  /**
   * The `traceparent` of the run's span as its record or its job keeps it: a resumed or distributed part of
   * the run goes on in that trace, under that span. Absent: the run's span is a child of the active span.
   */
  readonly traceparent?: string | undefined;
  readonly deadlineOf?: (dag: string, placement: string) => number | undefined;
  /** Which spans to make (see {@link RunSpansOptions.scope}); default `whole`. */
  readonly scope?: 'whole' | 'run' | 'items';
}

/** The tracer of a dispatcher that was given a tracer provider, with the API it was loaded with. */
export class Tracing {
  private constructor(
    readonly api: OtelApi,
    private readonly tracer: Tracer,
  ) {}

  /** Loads `@opentelemetry/api` (once per process) and takes Switchyard's tracer from `provider`. */
  static async of(provider: TracerProviderLike): Promise<Tracing> {
    const api = await loadOtelApi();
    return new Tracing(api, provider.getTracer(TRACER_NAME, VERSION) as Tracer);
  }

  /** The spans of one run (or of the part of it this process carries out), its run span started now. */
  runSpans(start: RunTraceStart): RunSpans {
    return new RunSpans({
      api: this.api,
      tracer: this.tracer,
      runId: start.runId,
      dagIri: start.dagIri,
      dagName: start.dagName,
      clock: start.clock,
      parent: this.parentOf(start.traceparent),
      ...(start.deadlineOf === undefined ? {} : { deadlineOf: start.deadlineOf }),
      ...(start.scope === undefined ? {} : { scope: start.scope }),
    });
  }

  /** The `traceparent` of a run's span, to be kept with the run (undefined for a job's spans, which have none). */
  traceParentOf(spans: RunSpans): string | undefined {
    const span = spans.runSpan;
    return span === undefined ? undefined : traceParentOf(span.spanContext());
  }

  private parentOf(traceparent: string | undefined): Context {
    const { context, trace } = this.api;
    const remote = spanContextOf(traceparent);
    return remote === undefined ? context.active() : trace.setSpanContext(context.active(), remote);
  }
}
