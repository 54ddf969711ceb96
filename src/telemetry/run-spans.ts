import type { Attributes, Context, HrTime, Span, Tracer } from '@opentelemetry/api';
import type { Clock } from '../policy/types.ts';
import type { ErrorSummary, RunEvent } from '../runtime/events.ts';
import { ATTR, INVOKE_WORKFLOW } from './attributes.ts';
import type { OtelApi } from './otel-api.ts';
import type { NodeTracing, SpanLike } from './span-like.ts';

/** What {@link RunSpans} needs to know of the run it traces. */
export interface RunSpansOptions {
  readonly api: OtelApi;
  readonly tracer: Tracer;
  readonly runId: string;
  readonly dagIri: string;
  readonly dagName: string;
  /** The context the run's span is a child of: the caller's active one, or the trace a resumed run goes on. */
  readonly parent: Context;
  /** The run's clock: event times are its `now()`, turned into wall time through `wallNow()`. */
  readonly clock: Clock;
  /** The deadline of a placement of a document, from the runtime policy. */
  readonly deadlineOf?: (dag: string, placement: string) => number | undefined;
  /**
   * Which spans to make: `whole` (default) the run's and its items'; `run` the run's only (a distributed
   * run's submitter, whose workers make the rest); `items` the items' only, as children of `parent` (a
   * worker's job of a distributed run, `parent` naming the run's span).
   */
  readonly scope?: 'whole' | 'run' | 'items';
}

/** The spans of one item in flight. */
interface ItemSpans {
  /** The placement execution under way. */
  open: Span | undefined;
  openContext: Context | undefined;
  /** The execution that ended last; ended for good once the item moves on, after its route is told. */
  closing: Span | undefined;
  closingEnd: HrTime | undefined;
  /** The retry that brought the item back, for the next execution's span. */
  retry: { readonly budget: string; readonly count: number } | undefined;
  backoff: Span | undefined;
  /** When the back-off is due, by the run's clock. */
  backoffDue: number;
  gate: Span | undefined;
  await: Span | undefined;
}

/** Where a child item's parent path ends: `1.3` → `1`, `1/e` → `1`, `1` → none. */
function parentItemOf(item: string): string | undefined {
  const at = Math.max(item.lastIndexOf('.'), item.lastIndexOf('/'));
  return at < 0 ? undefined : item.slice(0, at);
}

/** The error attributes of a span whose operation failed. */
function errorAttributes(error: ErrorSummary): Attributes {
  const attributes: Attributes = {
    [ATTR.errorType]: error.code,
    [ATTR.errorRetryable]: error.retryable,
  };
  if (error.kind !== undefined) attributes[ATTR.errorKind] = error.kind;
  if (error.status !== undefined) attributes[ATTR.httpStatus] = error.status;
  return attributes;
}

/**
 * The spans of one run, made from its event stream ({@link RunSpans.listener}): the run's span, a span per
 * placement execution (a child of the run's, or of the parent item's execution for a scatter's or an embed's
 * child items), a span per wait (back-off or Retry-After, gate, await) and an event per route taken. Only the
 * events it is given make spans: a resumed run's stream starts after what the stopped process recorded.
 */
export class RunSpans implements NodeTracing {
  private readonly run: Span | undefined;
  private readonly runContext: Context;
  private readonly makesItems: boolean;
  private readonly items = new Map<string, ItemSpans>();
  private readonly wallAt: number;
  private readonly nowAt: number;
  private ended = false;

  constructor(private readonly options: RunSpansOptions) {
    const { api, tracer, clock } = options;
    this.nowAt = clock.now();
    this.wallAt = clock.wallNow();
    const scope = options.scope ?? 'whole';
    this.makesItems = scope !== 'run';
    if (scope === 'items') {
      this.run = undefined;
      this.runContext = options.parent;
      return;
    }
    this.run = tracer.startSpan(
      `${INVOKE_WORKFLOW} ${options.dagName}`,
      {
        kind: api.SpanKind.INTERNAL,
        startTime: this.hr(this.nowAt),
        attributes: {
          [ATTR.genAiOperation]: INVOKE_WORKFLOW,
          [ATTR.runId]: options.runId,
          [ATTR.dagIri]: options.dagIri,
          [ATTR.dagName]: options.dagName,
        },
      },
      options.parent,
    );
    this.runContext = api.trace.setSpan(options.parent, this.run);
  }

  /** The run's span (none for a job's `items`), whose context a durable run records and a distributed run's jobs carry. */
  get runSpan(): Span | undefined {
    return this.run;
  }

  /** Ends the span of a distributed run submitted without being followed, once its jobs are on the queue. */
  submitted(): void {
    if (this.ended) return;
    this.run?.setAttribute(ATTR.runStatus, 'submitted');
    this.run?.end(this.hr(this.options.clock.now()));
    this.ended = true;
  }

  /**
   * Ends the spans of a distributed run's job as it hands its item on: executions that ended are ended, one
   * still open is marked interrupted, and a back-off the item now waits as a delayed job ends when it is due.
   * A gate's or an await's wait that goes on in a later job is dropped unexported.
   */
  flush(): void {
    const t = this.hr(this.options.clock.now());
    for (const spans of this.items.values()) {
      this.settle(spans);
      spans.open?.setAttribute(ATTR.interrupted, true);
      spans.open?.end(t);
      spans.backoff?.end(this.hr(spans.backoffDue));
    }
    this.items.clear();
  }

  /** The span of the placement execution `item` is in now, if any. */
  spanOf(item: string): SpanLike | undefined {
    return this.items.get(item)?.open;
  }

  /**
   * Calls `fn` (a node's call for `item`) with the item's execution span as the active span, so that the
   * spans the node makes (an HTTP client's, a model SDK's) nest under it, and gives that span to `ctx`.
   */
  within<T>(item: string, ctx: { span?: SpanLike | undefined }, fn: () => T): T {
    const spans = this.items.get(item);
    const span = spans?.open;
    if (spans === undefined || span === undefined) return fn();
    ctx.span = span;
    return this.options.api.context.with(this.openContextOf(spans, span), fn);
  }

  /**
   * Ends the run's span (and any other still open) when the run failed before it could end itself (its
   * store refused it, say), with the error recorded.
   */
  abandon(error: unknown): void {
    if (this.ended) return;
    const t = this.hr(this.options.clock.now());
    const code = (error as { code?: unknown } | null)?.code;
    const name = typeof code === 'string' ? code : error instanceof Error ? error.name : 'Error';
    const message = error instanceof Error ? error.message : String(error);
    this.run?.recordException({ name, message }, t);
    this.run?.setAttribute(ATTR.errorType, name);
    this.end('failed', 0, 0, t, message);
  }

  /** Makes the spans of one event; give it to the run's event stream. */
  readonly listener = (event: RunEvent): void => {
    if (this.ended) return;
    if (!this.makesItems && event.type !== 'run.start' && event.type !== 'run.end') return;
    // A followed distributed run's events are timed by its workers' clocks: the submitter times its span.
    const t = this.hr(this.makesItems ? event.time : this.options.clock.now());
    switch (event.type) {
      case 'run.start':
        this.run?.setAttributes({ [ATTR.dagHash]: event.hash, [ATTR.runItems]: event.items });
        if (event.resumed === true) this.run?.setAttribute(ATTR.runResumed, true);
        return;
      case 'run.end':
        this.end(event.status, event.completed, event.failed, t);
        return;
      case 'placement.start':
        this.placementStart(event.item, event.dag, event.placement, event.visit, t);
        return;
      case 'placement.end': {
        const spans = this.items.get(event.item);
        const span = spans?.open;
        if (spans === undefined || span === undefined) return;
        span.setAttribute(ATTR.output, event.output);
        if (event.error !== undefined) this.failed(span, event.error, t);
        spans.gate = this.endWait(spans.gate, t);
        spans.open = undefined;
        spans.openContext = undefined;
        spans.closing = span;
        spans.closingEnd = t;
        return;
      }
      case 'route': {
        const span = this.lastOf(event.item);
        if (span === undefined) return;
        span.setAttributes({ [ATTR.routeKind]: event.kind, [ATTR.routeTo]: event.to });
        span.addEvent(
          'route',
          {
            [ATTR.output]: event.output,
            [ATTR.routeKind]: event.kind,
            [ATTR.routeTo]: event.to,
            [ATTR.reason]: event.reason,
          },
          t,
        );
        return;
      }
      case 'retry.scheduled':
        this.retry(event, t);
        return;
      case 'budget.exhausted': {
        const span = this.lastOf(event.item);
        span?.setAttributes({ [ATTR.exhausted]: event.budget, [ATTR.exhaustedWhy]: event.why });
        span?.addEvent(
          'budget.exhausted',
          {
            [ATTR.budget]: event.budget,
            [ATTR.exhaustedWhy]: event.why,
            [ATTR.routeTo]: event.to,
            [ATTR.reason]: event.reason,
          },
          t,
        );
        return;
      }
      case 'salvage':
        this.lastOf(event.item)?.addEvent(
          'salvage',
          { [ATTR.routeTo]: event.to, [ATTR.reason]: event.reason },
          t,
        );
        return;
      case 'item.end':
        this.itemDone(event.item, t);
        return;
      case 'item.failed': {
        const attributes = {
          [ATTR.item]: event.item,
          [ATTR.placement]: event.placement,
          ...errorAttributes(event.error),
        };
        this.run?.addEvent('item.failed', attributes, t);
        this.itemDone(event.item, t);
        return;
      }
      case 'item.cancelled': {
        const spans = this.items.get(event.item);
        spans?.open?.setAttribute(ATTR.cancelled, true);
        spans?.await?.setAttribute(ATTR.cancelled, true);
        spans?.backoff?.setAttribute(ATTR.cancelled, true);
        this.itemDone(event.item, t);
        return;
      }
      case 'gate.wait': {
        const spans = this.spansOf(event.item);
        spans.gate?.end(t);
        spans.gate = this.options.tracer.startSpan(
          `gate ${event.gate}`,
          {
            startTime: t,
            attributes: {
              [ATTR.waitKind]: 'gate',
              [ATTR.gate]: event.gate,
              [ATTR.gateKey]: event.key,
              [ATTR.gateWhy]: event.why,
            },
          },
          this.waitParentOf(event.item, spans),
        );
        return;
      }
      case 'gate.passed': {
        const spans = this.items.get(event.item);
        spans?.gate?.setAttribute(ATTR.waitedMs, event.waitedMs);
        if (spans !== undefined) spans.gate = this.endWait(spans.gate, t);
        return;
      }
      case 'gate.closed':
        this.run?.addEvent(
          'gate.closed',
          {
            [ATTR.gate]: event.gate,
            [ATTR.gateKey]: event.key,
            [ATTR.reason]: event.reason,
            [ATTR.delayMs]: event.hintMs,
            [ATTR.item]: event.item,
            [ATTR.placement]: event.placement,
          },
          t,
        );
        return;
      case 'gate.opened':
        this.run?.addEvent('gate.opened', { [ATTR.gate]: event.gate, [ATTR.gateKey]: event.key }, t);
        return;
      case 'await.parked': {
        const spans = this.spansOf(event.item);
        spans.await?.end(t);
        spans.await = this.options.tracer.startSpan(
          `await ${event.placement}`,
          {
            startTime: t,
            attributes: {
              [ATTR.waitKind]: 'await',
              [ATTR.placement]: event.placement,
              [ATTR.item]: event.item,
              [ATTR.visit]: event.visit,
              [ATTR.token]: event.token,
              [ATTR.answers]: [...event.answers],
              [ATTR.deadlineAt]: event.deadlineAt,
              [ATTR.runResumed]: event.resumed,
            },
          },
          this.waitParentOf(event.item, spans),
        );
        return;
      }
      case 'await.answered':
      case 'await.expired': {
        const spans = this.items.get(event.item);
        const output = event.type === 'await.answered' ? event.output : 'deadline';
        const attributes = {
          [ATTR.output]: output,
          [ATTR.waitedMs]: event.waitedMs,
          [ATTR.early]: event.type === 'await.answered' ? event.early : undefined,
        };
        if (spans?.await === undefined) {
          this.lastOf(event.item)?.addEvent(event.type, attributes, t);
          return;
        }
        spans.await.setAttributes(attributes);
        spans.await = this.endWait(spans.await, t);
        return;
      }
      case 'warning':
        (this.lastOf(event.item) ?? this.run)?.addEvent(
          'warning',
          { code: event.code, [ATTR.placement]: event.placement, message: event.message },
          t,
        );
        return;
    }
  };

  /** Ends every span still open (an item stopped by an abort or parked when the run stops), then the run's. */
  private end(status: string, completed: number, failed: number, t: HrTime, why?: string): void {
    for (const spans of this.items.values()) {
      this.settle(spans);
      for (const span of [spans.open, spans.gate, spans.await, spans.backoff]) {
        span?.setAttribute(ATTR.interrupted, true);
        span?.end(t);
      }
    }
    this.items.clear();
    this.run?.setAttributes({
      [ATTR.runStatus]: status,
      [ATTR.runCompleted]: completed,
      [ATTR.runFailed]: failed,
    });
    if (why !== undefined) {
      this.run?.setStatus({ code: this.options.api.SpanStatusCode.ERROR, message: why });
    } else if (status === 'failed' || status === 'aborted') {
      this.run?.setAttribute(ATTR.errorType, status);
      this.run?.setStatus({
        code: this.options.api.SpanStatusCode.ERROR,
        message: status === 'failed' ? `${failed} item(s) failed` : 'the run was aborted',
      });
    }
    this.run?.end(t);
    this.ended = true;
  }

  private placementStart(item: string, dag: string, placement: string, visit: number, t: HrTime): void {
    const spans = this.spansOf(item);
    this.settle(spans);
    spans.backoff = this.endWait(spans.backoff, t);
    const attributes: Attributes = {
      [ATTR.placement]: placement,
      [ATTR.item]: item,
      [ATTR.visit]: visit,
      [ATTR.dagIri]: dag,
    };
    const deadline = this.options.deadlineOf?.(dag, placement);
    if (deadline !== undefined) attributes[ATTR.deadlineMs] = deadline;
    const retry = spans.retry;
    if (retry !== undefined) {
      attributes[ATTR.budget] = retry.budget;
      attributes[ATTR.budgetCount] = retry.count;
      spans.retry = undefined;
    }
    spans.open = this.options.tracer.startSpan(
      placement,
      { kind: this.options.api.SpanKind.INTERNAL, startTime: t, attributes },
      this.parentOf(item),
    );
  }

  private retry(event: Extract<RunEvent, { type: 'retry.scheduled' }>, t: HrTime): void {
    const spans = this.spansOf(event.item);
    const attributes: Attributes = {
      [ATTR.waitKind]: event.delaySource,
      [ATTR.delayMs]: event.delayMs,
      [ATTR.delaySource]: event.delaySource,
      [ATTR.budget]: event.budget,
      [ATTR.budgetCount]: event.attempt,
      [ATTR.routeTo]: event.to,
      [ATTR.reason]: event.reason,
    };
    this.lastOf(event.item)?.addEvent('retry.scheduled', attributes, t);
    spans.retry = { budget: event.budget, count: event.attempt };
    spans.backoffDue = event.time + event.delayMs;
    spans.backoff?.end(t);
    spans.backoff = this.options.tracer.startSpan(
      `wait ${event.delaySource}`,
      { startTime: t, attributes: { ...attributes, [ATTR.item]: event.item } },
      this.parentOf(event.item),
    );
  }

  /** Records an error on the span of an execution that threw or timed out. */
  private failed(span: Span, error: ErrorSummary, t: HrTime): void {
    span.setAttributes(errorAttributes(error));
    span.recordException({ name: error.code, message: error.message, code: error.code }, t);
    span.setStatus({ code: this.options.api.SpanStatusCode.ERROR, message: error.message });
  }

  /** The item left the run (a terminal, a failure, a cancel): its spans end. */
  private itemDone(item: string, t: HrTime): void {
    const spans = this.items.get(item);
    if (spans === undefined) return;
    this.settle(spans);
    for (const span of [spans.open, spans.gate, spans.await, spans.backoff]) span?.end(t);
    this.items.delete(item);
  }

  /** Ends the execution span that waited for its route to be told. */
  private settle(spans: ItemSpans): void {
    spans.closing?.end(spans.closingEnd);
    spans.closing = undefined;
    spans.closingEnd = undefined;
  }

  private endWait(span: Span | undefined, t: HrTime): undefined {
    span?.end(t);
    return undefined;
  }

  private spansOf(item: string): ItemSpans {
    let spans = this.items.get(item);
    if (spans === undefined) {
      spans = {
        open: undefined,
        openContext: undefined,
        closing: undefined,
        closingEnd: undefined,
        retry: undefined,
        backoff: undefined,
        backoffDue: 0,
        gate: undefined,
        await: undefined,
      };
      this.items.set(item, spans);
    }
    return spans;
  }

  /** The span an event about `item`'s last move belongs to: its execution under way, else the one just ended. */
  private lastOf(item: string): Span | undefined {
    const spans = this.items.get(item);
    return spans?.open ?? spans?.closing;
  }

  private openContextOf(spans: ItemSpans, span: Span): Context {
    spans.openContext ??= this.options.api.trace.setSpan(this.runContext, span);
    return spans.openContext;
  }

  /** Where an execution of `item` nests: under its parent item's execution (a scatter's, an embed's), else the run. */
  private parentOf(item: string): Context {
    for (let parent = parentItemOf(item); parent !== undefined; parent = parentItemOf(parent)) {
      const spans = this.items.get(parent);
      const span = spans?.open;
      if (spans !== undefined && span !== undefined) return this.openContextOf(spans, span);
    }
    return this.runContext;
  }

  /** Where a wait of `item` nests: under its execution under way, else where its executions do. */
  private waitParentOf(item: string, spans: ItemSpans): Context {
    const span = spans.open;
    return span === undefined ? this.parentOf(item) : this.openContextOf(spans, span);
  }

  /** A time of the run's clock as the wall time OpenTelemetry records, `[seconds, nanoseconds]`. */
  private hr(now: number): HrTime {
    const ms = this.wallAt + (now - this.nowAt);
    const seconds = Math.floor(ms / 1000);
    return [seconds, Math.min(999_999_999, Math.round((ms - seconds * 1000) * 1e6))];
  }
}
