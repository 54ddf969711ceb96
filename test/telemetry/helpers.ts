import type { Attributes } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/** A tracer provider whose finished spans are kept in memory. */
export function memoryTracing(): { provider: BasicTracerProvider; exporter: InMemorySpanExporter } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { provider, exporter };
}

/** Milliseconds of an OpenTelemetry time. */
function ms(time: readonly [number, number]): number {
  return time[0] * 1000 + time[1] / 1e6;
}

/** The attributes a tree line shows, when a span has them. */
const SHOWN = [
  'switchyard.item',
  'switchyard.visit',
  'switchyard.budget',
  'switchyard.budget.count',
  'switchyard.output',
  'switchyard.route.kind',
  'switchyard.budget.exhausted',
  'switchyard.wait.delay_ms',
  'error.type',
  'switchyard.run.status',
];

function shown(attributes: Attributes): string {
  const parts = SHOWN.filter((key) => attributes[key] !== undefined).map(
    (key) => `${key.replace(/^switchyard\./u, '')}=${String(attributes[key])}`,
  );
  return parts.length === 0 ? '' : ` [${parts.join(' ')}]`;
}

/**
 * The spans as a tracing UI draws them, one line each, children indented under their parent in start order:
 * `name @start+duration [attributes]`, times in ms from the earliest span's start (Switchyard's spans only).
 */
export function spanTree(spans: readonly ReadableSpan[]): string {
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  const own = spans.filter((s) => s.instrumentationScope.name === 'switchyard');
  const start = Math.min(...own.map((s) => ms(s.startTime)));
  const childrenOf = new Map<string | undefined, ReadableSpan[]>();
  for (const span of spans) {
    const parent = span.parentSpanContext?.spanId;
    const key = parent !== undefined && ids.has(parent) ? parent : undefined;
    childrenOf.set(key, [...(childrenOf.get(key) ?? []), span]);
  }
  const lines: string[] = [];
  const walk = (parent: string | undefined, depth: number) => {
    const children = [...(childrenOf.get(parent) ?? [])].sort((a, b) => ms(a.startTime) - ms(b.startTime));
    for (const span of children) {
      const at = Math.round(ms(span.startTime) - start);
      const took = Math.round(ms(span.endTime) - ms(span.startTime));
      // A node's own spans are timed by the real clock, Switchyard's by the run's (virtual in tests).
      const when = span.instrumentationScope.name === 'switchyard' ? ` @${at}+${took}` : '';
      lines.push(`${'  '.repeat(depth)}${span.name}${when}${shown(span.attributes)}`);
      walk(span.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines.join('\n');
}

/** The names of a span's events, in order. */
export function eventNames(span: ReadableSpan | undefined): string[] {
  return span?.events.map((e) => e.name) ?? [];
}
