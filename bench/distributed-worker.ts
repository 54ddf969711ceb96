/**
 * A worker process for bench/distributed-w2.bench.ts: W2's two nodes (`urn:bench:double`,
 * `urn:bench:increment`) on the given Redis, prefix and queue, `concurrency` jobs at a time (default 64),
 * each node waiting `waitMs` first (default 0: none), as a node that calls a service would.
 * Prints `ready` once it takes jobs; answers each `cpu` line on its stdin with `cpu <ms>` (its user + system
 * CPU time so far); SIGTERM drains it, and it exits (so that a `--cpu-prof` profile is written).
 */
import { createInterface } from 'node:readline';
import { startWorker } from '../src/distributed/worker.ts';
import { defineNode } from '../src/runtime/node.ts';
import { double, increment } from './baseline/scatter-chain.ts';

const [url, prefix, queue, concurrency, wait] = process.argv.slice(2) as [
  string,
  string,
  string,
  string?,
  string?,
];
const waitMs = Number(wait ?? 0);
/** Waits `waitMs` first when asked to, as a node that calls a service does; else runs at once. */
const after =
  <T>(f: () => T) =>
  (): T | Promise<T> =>
    waitMs > 0 ? new Promise<T>((resolve) => setTimeout(() => resolve(f()), waitMs)) : f();
const nodes = [
  defineNode({ id: 'urn:bench:double', outputs: ['ok'], run: (item) => after(() => double(item.data))() }),
  defineNode({
    id: 'urn:bench:increment',
    outputs: ['ok'],
    run: (item) => after(() => increment(item.data))(),
  }),
];
const worker = await startWorker({
  connection: url,
  nodes,
  prefix,
  queue,
  concurrency: Number(concurrency ?? 64),
});
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line !== 'cpu') return;
  const used = process.cpuUsage();
  process.stdout.write(`cpu ${((used.user + used.system) / 1000).toFixed(1)}\n`);
});
process.once('SIGTERM', () => {
  lines.close();
  void worker.close().then(() => process.exit(0));
});
