import { randomUUID } from 'node:crypto';
import { createDistributedDispatcher } from '../../distributed/dispatcher.ts';
import { DEFAULT_QUEUE } from '../../distributed/worker.ts';
import { SwitchyardError } from '../../errors.ts';
import { systemClock } from '../../policy/clock.ts';
import type { RunEvent } from '../../runtime/events.ts';
import type { RunResult } from '../../runtime/run.ts';
import { openRedisStore } from '../../store/redis.ts';
import { redisLocation } from '../../store/redis-connect.ts';
import type { SetExit } from '../commands/index.ts';
import type { RunCommandOptions } from '../commands/run.ts';
import { plural } from '../format.ts';
import type { CliIO } from '../io.ts';
import { loadValidDag } from '../load-one.ts';
import { loadNodeModule } from '../node-modules.ts';
import { flushOtel, otelFor, tracerOption } from '../otel-flag.ts';
import { policyFor } from '../policy-file.ts';
import { redisPrefixes } from '../redis-prefix.ts';
import { openEvents } from '../run-events.ts';
import { claimRunStdio, runFlags, summaryIO } from '../run-flags.ts';
import { readInput } from '../run-input.ts';
import { printRunResult } from '../run-output.ts';
import { runProgress } from '../run-progress.ts';
import { interruptOnSigint } from '../run-store.ts';
import { errorCollector } from '../run-summary.ts';

/** Refuses the flags of a local run that a run over Redis cannot honour, one line each. */
function checkRedisFlags(options: RunCommandOptions): string {
  const url = options.redis as string;
  if (options.wait !== true && options.events !== undefined) {
    throw new SwitchyardError(
      'E_USAGE',
      '--events needs --wait: without it this process submits the run and leaves; read the events later with `switchyard runs events <id> --redis <url>`',
    );
  }
  if (options.virtualTime === true) {
    throw new SwitchyardError(
      'E_USAGE',
      '--virtual-time does not apply with --redis: workers run on real time',
    );
  }
  if (options.store !== undefined) {
    throw new SwitchyardError(
      'E_USAGE',
      '--store and --no-store do not apply with --redis: the run is recorded in that Redis',
    );
  }
  return url;
}

/** `url` as the user gave it, quoted for a shell when it needs to be. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/u.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * Carries out `switchyard run <dag> --redis <url> [--wait]` (see commands/run.ts): submits the run to the
 * workers on that Redis, where it is recorded in the Redis run store. With `--wait` it follows the run's
 * events and prints the summary a local run prints; without, it prints the run id and how to follow it,
 * and exits 0 once the run's jobs are on the queue.
 */
export async function redisRunAction(
  dagPath: string,
  options: RunCommandOptions,
  io: CliIO,
  setExit: SetExit,
): Promise<void> {
  const url = checkRedisFlags(options);
  const { deadlineMs } = runFlags(options);
  claimRunStdio(dagPath, options);
  // Without --nodes the documents are checked without nodes: each worker checks the nodes it carries.
  const nodes = options.nodes === undefined ? undefined : await loadNodeModule(options.nodes, io.cwd);
  const { file, dag, library } = await loadValidDag(dagPath, io, nodes);
  const items = await readInput(options.input, io);
  const { policy, from } = await policyFor(file, options.policy, io, { dag, library });
  const prefixes = redisPrefixes();
  const store = await openRedisStore(url, { prefix: prefixes.store });
  let result: RunResult;
  let otel: Awaited<ReturnType<typeof otelFor>>;
  try {
    otel = await otelFor(options.otel);
    const dispatcher = await createDistributedDispatcher({
      connection: url,
      ...tracerOption(otel),
      ...(nodes === undefined ? {} : { nodes }),
      store,
      prefix: prefixes.dist,
      ...(library === undefined ? {} : { library }),
      ...(policy === undefined ? {} : { policy }),
      ...(options.queue === undefined ? {} : { queue: options.queue }),
    });
    try {
      const runId = randomUUID();
      const runOptions = { items, runId, ...(deadlineMs === undefined ? {} : { deadlineMs }) };
      const show = `switchyard runs show ${runId} --redis ${shellWord(redisLocation(url))}`;
      if (options.wait !== true) {
        await dispatcher.submit(dag, {}, runOptions);
        if (options.json === true) io.out(JSON.stringify({ runId, status: 'submitted', show }, null, 2));
        else {
          io.out(
            `submitted run ${runId} (${plural(items.length, 'item')}) to queue '${options.queue ?? DEFAULT_QUEUE}'`,
          );
          io.out(`follow it: ${show}`);
        }
        setExit(0);
        return;
      }
      const events = options.events === undefined ? undefined : await openEvents(options.events, io);
      const errors = errorCollector();
      // The workers' waits are counted down on this machine's clock, from when their events arrive.
      const progress = runProgress(
        { total: items.length, runId, clock: systemClock, flag: options.progress },
        io,
      );
      const onEvent = (event: RunEvent) => {
        errors.onEvent(event);
        progress.onEvent(event);
        events?.write(event);
      };
      // Ctrl-C stops following, not the run: the workers carry it on, and any machine can abort it.
      const interrupt = interruptOnSigint();
      const interrupted = new Promise<undefined>((resolve) =>
        interrupt.signal.addEventListener('abort', () => resolve(undefined), { once: true }),
      );
      let outcome: RunResult | undefined;
      try {
        outcome = await Promise.race([dispatcher.run(dag, {}, { ...runOptions, onEvent }), interrupted]);
      } finally {
        interrupt.dispose();
        progress.stop();
        await events?.close();
      }
      if (outcome === undefined) {
        const abort = `switchyard runs abort ${runId} --redis ${shellWord(redisLocation(url))}`;
        io.err(
          `switchyard: stopped following run ${runId}; the workers carry it on: follow it with \`${show}\`, or abort it with \`${abort}\``,
        );
        setExit(1);
        return;
      }
      result = outcome;
      printRunResult(summaryIO(io, options), result, {
        json: options.json === true,
        policyFrom: from,
        virtualTime: false,
        errors: errors.errors,
        storePath: undefined,
      });
    } finally {
      await dispatcher.close();
    }
  } finally {
    await store.close();
    await flushOtel(otel, io.err);
  }
  setExit(result.status === 'completed' ? 0 : 1);
}
