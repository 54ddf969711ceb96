/**
 * The cost of tracing with OpenTelemetry: W1 (2,000 compose → validate runs, 9 node executions each) and W2
 * sync (one scatter of 10,000 items through a two-task sub-DAG, 20,000 node executions) with tracing off,
 * then on through the SDK's `BasicTracerProvider` with a span processor that drops every span (what the
 * engine and the SDK spend making spans), then with an in-memory exporter behind a batch processor (as a
 * deployment exports: the batches' export is timed only as far as it runs during the run). Prints
 * µs per node execution, the median of several repetitions, and what tracing adds per execution.
 * `REPS=n`, `RUNS=n` (W1 runs per repetition), `W2_SIZE=n`.
 */
import { performance } from 'node:perf_hooks';
import type { Context } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  InMemorySpanExporter,
  type ReadableSpan,
  type Span,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { libraryOf } from '../src/document/load.ts';
import { createDispatcher, type DispatcherOptions } from '../src/runtime/dispatcher.ts';
import { defineNode } from '../src/runtime/node.ts';
import type { TracerProviderLike } from '../src/telemetry/span-like.ts';
import { double, increment } from './baseline/scatter-chain.ts';
import { median, printTable } from './stats.ts';
import { W1_POLICY, w1Workload, w2Documents } from './workloads.ts';

const REPS = Number(process.env.REPS ?? 7);
const RUNS = Number(process.env.RUNS ?? 2000);
const W2_SIZE = Number(process.env.W2_SIZE ?? 10_000);
const WARMUP = 2;

/** A span processor that keeps nothing: the spans are made and ended, then dropped. */
class DroppingProcessor implements SpanProcessor {
  onStart(_span: Span, _context: Context): void {}
  onEnd(_span: ReadableSpan): void {}
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

type Tracing = 'off' | 'dropped' | 'batched';

function providerFor(tracing: Tracing): { provider?: TracerProviderLike; reset: () => unknown } {
  if (tracing === 'off') return { reset: () => undefined };
  if (tracing === 'dropped') {
    return {
      provider: new BasicTracerProvider({ spanProcessors: [new DroppingProcessor()] }),
      reset: () => undefined,
    };
  }
  const exporter = new InMemorySpanExporter();
  // What a deployment uses: spans exported in batches, off the path of the run.
  const processor = new BatchSpanProcessor(exporter, { maxQueueSize: 100_000, maxExportBatchSize: 4096 });
  const provider = new BasicTracerProvider({ spanProcessors: [processor] });
  return {
    provider,
    reset: async () => {
      await processor.forceFlush();
      exporter.reset();
    },
  };
}

function traced<S>(
  options: DispatcherOptions<S>,
  provider: TracerProviderLike | undefined,
): DispatcherOptions<S> {
  return provider === undefined ? options : { ...options, tracerProvider: provider };
}

/** µs per node execution of W1. */
async function w1(tracing: Tracing): Promise<number> {
  const { compiled, nodes } = w1Workload();
  const { provider, reset } = providerFor(tracing);
  const dispatcher = createDispatcher(traced({ nodes, policy: W1_POLICY }, provider));
  const once = async () => {
    let executions = 0;
    const start = performance.now();
    for (let i = 0; i < RUNS; i++) {
      executions += (await dispatcher.run(compiled, { topic: 'whales' })).stats.executions;
    }
    const us = ((performance.now() - start) * 1000) / executions;
    await reset();
    return us;
  };
  for (let i = 0; i < WARMUP; i++) await once();
  const samples: number[] = [];
  for (let i = 0; i < REPS; i++) samples.push(await once());
  return median(samples);
}

/** µs per node execution of W2 sync. */
async function w2(tracing: Tracing): Promise<number> {
  const { child, parent } = w2Documents();
  const nodes = [
    defineNode({ id: 'urn:bench:double', outputs: ['ok'], run: (item) => double(item.data) }),
    defineNode({ id: 'urn:bench:increment', outputs: ['ok'], run: (item) => increment(item.data) }),
  ];
  const { provider, reset } = providerFor(tracing);
  const policy = { placements: { fan: { concurrency: 64 } } };
  const dispatcher = createDispatcher(traced({ nodes, library: libraryOf([child]), policy }, provider));
  const xs = Array.from({ length: W2_SIZE }, (_, i) => i);
  const once = async () => {
    const start = performance.now();
    const result = await dispatcher.run(parent, { xs });
    const us = ((performance.now() - start) * 1000) / result.stats.executions;
    if (result.status !== 'completed') throw new Error(`W2 run ${result.status}`);
    await reset();
    return us;
  };
  for (let i = 0; i < WARMUP; i++) await once();
  const samples: number[] = [];
  for (let i = 0; i < REPS; i++) samples.push(await once());
  return median(samples);
}

const rows: string[][] = [];
for (const [name, measure] of [
  ['W1', w1],
  ['W2 sync', w2],
] as const) {
  const off = await measure('off');
  const dropped = await measure('dropped');
  const memory = await measure('batched');
  rows.push([`${name}, tracing off`, `${off.toFixed(3)} µs/exec`, '']);
  rows.push([
    `${name}, tracing on (spans dropped)`,
    `${dropped.toFixed(3)} µs/exec`,
    `+${(dropped - off).toFixed(2)} µs per execution`,
  ]);
  rows.push([
    `${name}, tracing on (batched to an in-memory exporter)`,
    `${memory.toFixed(3)} µs/exec`,
    `+${(memory - off).toFixed(2)} µs per execution`,
  ]);
}
printTable(`OpenTelemetry tracing cost, median of ${REPS}`, rows);
