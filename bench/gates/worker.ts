/**
 * A worker process of the gates benchmark's distributed mode: the `call` node (workload.ts) on the given
 * Redis, prefix and queue, calling the service at `serviceUrl`, `concurrency` jobs at a time. Prints
 * `ready` once it takes jobs; SIGTERM drains it and it exits.
 *
 *   node --import tsx bench/gates/worker.ts <redis url> <prefix> <queue> <service url> <concurrency>
 */
import { startWorker } from '../../src/distributed/worker.ts';
import { type CallServices, callNode } from './workload.ts';

const [connection, prefix, queue, url, concurrency] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
];
const services: CallServices = { url };
const worker = await startWorker({
  connection,
  nodes: [callNode],
  prefix,
  queue,
  services,
  concurrency: Number(concurrency),
  log: (line) => process.stderr.write(`gates worker ${process.pid}: ${line}\n`),
});
process.stdout.write('ready\n');
process.once('SIGTERM', () => {
  void worker.close().then(() => process.exit(0));
});
