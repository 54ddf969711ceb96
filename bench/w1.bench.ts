/**
 * W1: a compose → validate loop that retries until its budget of 3 is spent, then salvages (9 node executions
 * per run), 2,000 sequentially awaited runs on the real clock with zero back-off and no deadlines. Prints node
 * executions per second and µs per execution, without and with an event consumer, beside the same loop
 * written by hand (bench/baseline/compose-validate.ts). Medians of several repetitions.
 */
import { performance } from 'node:perf_hooks';
import { createDispatcher } from '../src/runtime/dispatcher.ts';
import type { RunEvent } from '../src/runtime/events.ts';
import { composeValidateLoop, type Draft } from './baseline/compose-validate.ts';
import { median, printTable } from './stats.ts';
import { W1_BUDGET, W1_POLICY, w1Workload } from './workloads.ts';

const RUNS = Number(process.env.RUNS ?? 2000);
const REPS = Number(process.env.REPS ?? 9);
const WARMUP = 3;
const BUDGET = W1_BUDGET;
const TARGET_US = 1.5;

const { compiled, nodes } = w1Workload();

const dispatcher = createDispatcher({
  nodes,
  policy: W1_POLICY,
});

interface Sample {
  readonly ms: number;
  readonly executions: number;
}

async function engine(onEvent: ((e: RunEvent) => void) | undefined): Promise<Sample> {
  let executions = 0;
  const options = onEvent === undefined ? {} : { onEvent };
  const start = performance.now();
  for (let i = 0; i < RUNS; i++) {
    const result = await dispatcher.run(compiled, { topic: 'whales' }, options);
    executions += result.stats.executions;
  }
  return { ms: performance.now() - start, executions };
}

async function baseline(): Promise<Sample> {
  let executions = 0;
  const start = performance.now();
  for (let i = 0; i < RUNS; i++) {
    const data: Draft = { topic: 'whales' };
    executions += await composeValidateLoop(data, BUDGET);
  }
  return { ms: performance.now() - start, executions };
}

async function measure(
  fn: () => Promise<Sample>,
): Promise<{ us: number; perSecond: number; executions: number }> {
  for (let i = 0; i < WARMUP; i++) await fn();
  const samples: Sample[] = [];
  for (let i = 0; i < REPS; i++) samples.push(await fn());
  const executions = samples[0]?.executions ?? 0;
  const us = median(samples.map((s) => (s.ms * 1000) / s.executions));
  return { us, perSecond: 1e6 / us, executions };
}

let events = 0;
const hand = await measure(baseline);
const quiet = await measure(() => engine(undefined));
const listened = await measure(() =>
  engine(() => {
    events++;
  }),
);
const check = (us: number) =>
  us <= TARGET_US ? `ok (target ≤ ${TARGET_US} µs)` : `MISSED (target ≤ ${TARGET_US} µs)`;
const row = (label: string, m: { us: number; perSecond: number }, note: string) => [
  label,
  `${(m.perSecond / 1e6).toFixed(2)} M exec/s   ${m.us.toFixed(3)} µs/exec`,
  note,
];

printTable(
  `W1 compose → validate, budget ${BUDGET}, ${RUNS} runs × ${quiet.executions / RUNS} executions, median of ${REPS}`,
  [
    row('baseline: hand-written loop', hand, ''),
    row('dispatcher, no event consumer', quiet, check(quiet.us)),
    row(
      'dispatcher, onEvent consumer',
      listened,
      `${check(listened.us)}; ${events / (REPS + WARMUP) / RUNS} events/run`,
    ),
    ['ratio dispatcher / baseline (no consumer)', `${(quiet.us / hand.us).toFixed(1)}×`],
  ],
);
