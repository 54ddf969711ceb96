/**
 * The shapes of OpenTelemetry's API that Switchyard's public types name, written out here so that a program
 * compiled without `@opentelemetry/api` installed still type-checks: the real `Span` and `TracerProvider`
 * are assignable to them.
 */

/**
 * An attribute value as OpenTelemetry takes it. Arrays are mutable here: the API's own `AttributeValue`
 * takes readonly arrays only from 1.10 on, and a `Span` of an earlier 1.x must be assignable to
 * {@link SpanLike} too.
 */
export type TraceAttributeValue = string | number | boolean | string[] | number[] | boolean[];

/**
 * The span of one placement execution as a node sees it (`ctx.span`): attributes and events it adds land on
 * that span, e.g. the GenAI attributes of a model call (`gen_ai.request.model`, `gen_ai.usage.input_tokens`).
 * It is an OpenTelemetry `Span`; cast it to one to use the rest of its API.
 */
export interface SpanLike {
  setAttribute(key: string, value: TraceAttributeValue): unknown;
  setAttributes(attributes: Readonly<Record<string, TraceAttributeValue | undefined>>): unknown;
  addEvent(name: string, attributes?: Readonly<Record<string, TraceAttributeValue | undefined>>): unknown;
}

/** An OpenTelemetry `TracerProvider` (an SDK's `BasicTracerProvider`, `NodeTracerProvider`, …). */
export interface TracerProviderLike {
  getTracer(name: string, version?: string, options?: object): unknown;
}

/** How the engine calls a node of a traced run: inside the span of the item's placement execution. */
export interface NodeTracing {
  /** Calls `fn` (the node's call for `item`) with the item's execution span active, given to `ctx` too. */
  within<T>(item: string, ctx: { span?: SpanLike | undefined }, fn: () => T): T;
}
