/**
 * Trace overlay cost: summing up a run trace of 10,000 to 80,000 events in which every retry waits on the
 * same route (the worst case for per-route wait lists), parsed from JSONL and summed up. The cost per event
 * should stay flat as the trace grows.
 * Run: node --import tsx bench/trace.bench.ts
 */
import { performance } from 'node:perf_hooks';
import { parseTrace, summariseTrace } from '../src/render/trace.ts';
import type { RunEvent } from '../src/runtime/events.ts';
import { median, printTable } from './stats.ts';

const RUNS = 3;
const dag = 'urn:switchyard:dag:bench-trace';

/** `count` events: pairs of a retry route and its scheduled wait, all on one route of one item. */
function retryEvents(count: number): RunEvent[] {
  const events: RunEvent[] = [];
  for (let seq = 0; events.length < count; seq++) {
    const base = { seq, time: seq, runId: 'bench', item: '1', dag };
    events.push(
      seq % 2 === 0
        ? { ...base, type: 'route', from: 'validate', output: 'invalid', to: 'compose', kind: 'retry' }
        : {
            ...base,
            type: 'retry.scheduled',
            from: 'validate',
            output: 'invalid',
            to: 'compose',
            budget: 'compose',
            attempt: seq,
            delayMs: 5,
            delaySource: 'backoff',
          },
    );
  }
  return events;
}

const rows: string[][] = [];
let first: number | undefined;
for (const count of [10_000, 20_000, 40_000, 80_000]) {
  const text = `${retryEvents(count)
    .map((e) => JSON.stringify(e))
    .join('\n')}\n`;
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    summariseTrace(parseTrace(text, 'bench.jsonl'));
    samples.push(performance.now() - start);
  }
  const total = median(samples);
  const perEvent = (total * 1000) / count;
  first ??= perEvent;
  rows.push([
    `${count.toLocaleString('en')} events`,
    `${total.toFixed(1)} ms`,
    `${perEvent.toFixed(2)} µs/event (${(perEvent / first).toFixed(2)} × that of 10,000)`,
  ]);
}
printTable(`parse + summarise a trace (median of ${RUNS})`, rows);
