/**
 * Rate-limit gates against a real service (issue 22): 500 items through a DAG whose `call` placement calls
 * an HTTP service on 127.0.0.1 that accepts 20 requests in any second and answers the rest 429 with
 * `Retry-After: 1` (bench/gates/rate-server.ts), retried on a budget of 3. Each mode (one process, durable
 * on an SQLite file, two worker processes over Redis) runs it without a gate, then with a gate paced at the
 * service's rate, and the table puts the two side by side: items completed and exhausted, requests sent and
 * per item, time and its ratio to the ideal (items ÷ rate).
 *
 * With the gate every mode must exhaust no item, send at most 1.05 requests per item and take at most 1.15×
 * the ideal; the exit status is 1 when one does not (or a mode cannot run), 0 otherwise. Files and Redis
 * keys it made are removed.
 *
 *   node --import tsx bench/gates.bench.ts                (or npm run bench:gates)
 *   GATES_MODES=in-process,durable GATES_ITEMS=200 node --import tsx bench/gates.bench.ts
 */
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { systemClock } from '../src/policy/clock.ts';
import type { PolicyInput } from '../src/policy/types.ts';
import { distributed } from './gates/distributed.ts';
import { durable, inProcess, MODE_LABELS, MODES, type ModeName, type OpenMode } from './gates/modes.ts';
import { type RateServer, startRateServer } from './gates/rate-server.ts';
import {
  GATED_TARGETS,
  idealMs,
  type Measurement,
  type ModePair,
  measure,
  missedTargets,
  tableRows,
} from './gates/report.ts';
import { gatedPolicy, SERVICE_RATE, ungatedPolicy } from './gates/workload.ts';
import { printTable } from './stats.ts';

/** A run still going at this many times the ideal (or a minute, if more) is given up, and fails the bench. */
const RUN_LIMIT_TO_IDEAL = 10;

/** Worker processes of the distributed mode, and jobs each carries at once (the policy's concurrency). */
const POOL = { workers: 2, concurrency: 16 } as const;

function options(env: NodeJS.ProcessEnv): { items: number; modes: ModeName[] } {
  const items = Number(env.GATES_ITEMS ?? 500);
  if (!Number.isInteger(items) || items < 1) {
    throw new Error(`GATES_ITEMS is ${env.GATES_ITEMS}; give a whole number of items, at least 1`);
  }
  const modes = (env.GATES_MODES ?? MODES.join(',')).split(',').map((m) => m.trim());
  for (const mode of modes) {
    if (!(MODES as readonly string[]).includes(mode)) {
      throw new Error(`GATES_MODES names '${mode}'; name some of ${MODES.join(', ')}, comma-separated`);
    }
  }
  return { items, modes: modes as ModeName[] };
}

async function open(mode: ModeName, url: string): Promise<OpenMode | undefined> {
  switch (mode) {
    case 'in-process':
      return inProcess(url);
    case 'durable':
      return durable(url);
    case 'distributed':
      return distributed(url, POOL);
  }
}

/**
 * Runs the workload once in `mode` under `policy`, the service's counts zeroed first. Rejects when the run
 * does not end within {@link RUN_LIMIT_TO_IDEAL} times the ideal (or a minute, if more).
 */
async function measureRun(
  mode: OpenMode,
  policy: PolicyInput,
  items: readonly Record<string, unknown>[],
  server: RateServer,
  ideal: number,
): Promise<Measurement> {
  server.reset();
  // A closing reaches every run (and, across workers, every job) with an item at the key: it is counted
  // once, by its key and the time it ends.
  const closings = new Set<string>();
  const limitMs = Math.max(RUN_LIMIT_TO_IDEAL * ideal, 60_000);
  const limit = new AbortController();
  const done = new AbortController();
  systemClock.sleep(limitMs, done.signal).then(
    () => limit.abort(new Error(`the run did not end within ${(limitMs / 1000).toFixed(0)} s`)),
    () => {},
  );
  const start = performance.now();
  try {
    const result = await mode.run(
      policy,
      items,
      (event) => {
        if (event.type === 'gate.closed') closings.add(`${event.key} ${event.untilMs}`);
      },
      limit.signal,
    );
    const ms = performance.now() - start;
    if (limit.signal.aborted) throw limit.signal.reason;
    return measure(result, server.counts(), closings.size, ms);
  } finally {
    done.abort();
  }
}

/** A mode's two runs, without a gate and with one; what went wrong goes to `problems`. */
async function measureMode(
  mode: ModeName,
  server: RateServer,
  items: readonly Record<string, unknown>[],
  ideal: number,
  problems: string[],
): Promise<ModePair | undefined> {
  const label = MODE_LABELS[mode];
  let opened: OpenMode | undefined;
  try {
    opened = await open(mode, server.url);
  } catch (error) {
    problems.push(`${label}: ${(error as Error).message.split('\n')[0]}`);
    return undefined;
  }
  if (opened === undefined) {
    problems.push(`${label}: skipped, no Redis answered (leave it out with GATES_MODES)`);
    return undefined;
  }
  const one = async (policy: PolicyInput, name: string): Promise<Measurement | undefined> => {
    process.stderr.write(`running ${label}, ${name}…\n`);
    try {
      return await measureRun(opened, policy, items, server, ideal);
    } catch (error) {
      problems.push(`${label}, ${name}: ${(error as Error).message.split('\n')[0]}`);
      return undefined;
    }
  };
  try {
    const ungated = await one(ungatedPolicy, 'no gate');
    const gated = await one(gatedPolicy, 'gate');
    const missed = gated === undefined ? [] : missedTargets(gated, ideal);
    if (missed.length > 0) problems.push(`${label} with the gate: ${missed.join('; ')}`);
    return { label, ungated, gated };
  } finally {
    await opened.close();
  }
}

async function main(): Promise<number> {
  let chosen: { items: number; modes: ModeName[] };
  try {
    chosen = options(process.env);
  } catch (error) {
    process.stderr.write(`gates bench: ${(error as Error).message}\n`);
    return 2;
  }
  const items = Array.from({ length: chosen.items }, (_x, n) => ({ n }));
  const ideal = idealMs(chosen.items, SERVICE_RATE);
  process.stdout.write(
    `gates bench: node ${process.version}, ${cpus().length} cores; ${chosen.items} items, service ${SERVICE_RATE.limit} requests per ${SERVICE_RATE.periodMs} ms (sliding window), 429 with Retry-After: 1\n`,
  );
  const server = await startRateServer({
    limit: SERVICE_RATE.limit,
    windowMs: SERVICE_RATE.periodMs,
    retryAfterSeconds: 1,
  });
  const pairs: ModePair[] = [];
  const problems: string[] = [];
  try {
    for (const mode of chosen.modes) {
      const pair = await measureMode(mode, server, items, ideal, problems);
      if (pair !== undefined) pairs.push(pair);
    }
  } finally {
    await server.close();
  }
  printTable(
    `Rate-limit gates: ${chosen.items} items, budget of 3, service at ${SERVICE_RATE.limit}/s; ideal = items ÷ rate`,
    tableRows(pairs, ideal),
  );
  process.stdout.write(
    `  targets with the gate: ${GATED_TARGETS.exhausted} exhausted, at most ${GATED_TARGETS.requestsPerItem} requests per item, at most ${GATED_TARGETS.timeToIdeal}× the ideal\n`,
  );
  for (const problem of problems) process.stdout.write(`  ${problem}\n`);
  return problems.length > 0 ? 1 : 0;
}

process.exitCode = await main();
