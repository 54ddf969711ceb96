import type { Command } from 'commander';
import type { CliIO } from '../io.ts';
import { NODES_HELP, OTEL_HELP } from '../option-help.ts';

/** The options commander parses for this command. */
export interface WorkerCommandOptions {
  readonly redis: string;
  readonly nodes: string;
  readonly concurrency?: string;
  readonly queue?: string;
  /** Export traces over OTLP/HTTP. */
  readonly otel?: boolean;
}

/**
 * `switchyard worker --redis <url> --nodes <module>`: carries the items of runs submitted with
 * `switchyard run <dag> --redis <url> --wait` (or `createDistributedDispatcher`), one BullMQ job per item
 * at a placement; start as many as you like, on one machine or many. SIGTERM or Ctrl-C drains: the worker
 * takes no new job, finishes those it holds, and exits 0. A Redis that does not answer at the start is refused
 * with one line naming it; one that goes away later is waited for (reconnecting with back-off), with one line
 * when it is lost and one when it is back. A worker may register only some of the nodes a run needs: it
 * leaves the jobs of the others for workers that register them, with one line per missing node.
 * @example
 * switchyard worker --redis redis://127.0.0.1:6379 --nodes examples/compose-validate/nodes.ts --concurrency 8
 */
export function registerWorker(program: Command, io: CliIO): void {
  program
    .command('worker')
    .description('carry the items of runs submitted over Redis (start as many as you like)')
    .requiredOption('--redis <url>', 'the Redis the runs are submitted to, as redis://host:port')
    .requiredOption('--nodes <module>', NODES_HELP)
    .option('--concurrency <n>', 'jobs this worker carries at once (default: 1)')
    .option('--queue <name>', 'the queue to take jobs from (default: switchyard)')
    .option('--otel', OTEL_HELP)
    .action(async (options: WorkerCommandOptions) => {
      const { workerAction } = await import('../actions/worker.ts');
      await workerAction(options, io);
    });
}
