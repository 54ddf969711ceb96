import { startWorker } from '../../distributed/worker.ts';
import { SwitchyardError } from '../../errors.ts';
import { openRedisStore } from '../../store/redis.ts';
import type { WorkerCommandOptions } from '../commands/worker.ts';
import type { CliIO } from '../io.ts';
import { loadNodeModule } from '../node-modules.ts';
import { flushOtel, otelFor, tracerOption } from '../otel-flag.ts';
import { redisPrefixes } from '../redis-prefix.ts';

/** `--concurrency` as a whole number from 1 up, or a usage error saying so. */
export function parseConcurrency(text: string | undefined): number {
  if (text === undefined) return 1;
  const n = Number(text);
  if (!/^\d+$/u.test(text) || !Number.isSafeInteger(n) || n < 1) {
    throw new SwitchyardError('E_USAGE', `--concurrency is '${text}'; give a whole number of jobs from 1 up`);
  }
  return n;
}

/**
 * Carries out `switchyard worker` (described in commands/worker.ts): takes jobs until SIGTERM or SIGINT,
 * then drains and returns.
 */
export async function workerAction(options: WorkerCommandOptions, io: CliIO): Promise<void> {
  const concurrency = parseConcurrency(options.concurrency);
  const nodes = await loadNodeModule(options.nodes, io.cwd);
  // The run store the submitter records runs in: step values go there before a node goes on.
  const prefixes = redisPrefixes();
  const store = await openRedisStore(options.redis, { prefix: prefixes.store });
  let otel: Awaited<ReturnType<typeof otelFor>>;
  try {
    otel = await otelFor(options.otel);
    const worker = await startWorker({
      connection: options.redis,
      ...tracerOption(otel),
      nodes,
      concurrency,
      store,
      prefix: prefixes.dist,
      log: (line) => io.err(line),
      ...(options.queue === undefined ? {} : { queue: options.queue }),
    });
    io.err(
      `switchyard worker: taking jobs from queue '${options.queue ?? 'switchyard'}' (concurrency ${concurrency}); SIGTERM or Ctrl-C drains and exits`,
    );
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGTERM', stop);
        process.off('SIGINT', stop);
        resolve();
      };
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
    });
    io.err('switchyard worker: draining: finishing the jobs it holds');
    await worker.close();
    io.err('switchyard worker: stopped');
  } finally {
    await store.close();
    await flushOtel(otel, io.err);
  }
}
