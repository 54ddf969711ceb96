import { randomUUID } from 'node:crypto';
import { SwitchyardError } from '../../errors.ts';
import { systemClock } from '../../policy/clock.ts';
import { createDispatcher } from '../../runtime/dispatcher.ts';
import type { RunEvent } from '../../runtime/events.ts';
import type { RunResult } from '../../runtime/run.ts';
import { printViewerUrl } from '../../ui/discovery.ts';
import type { SetExit } from '../commands/index.ts';
import type { RunCommandOptions } from '../commands/run.ts';
import { runExitCode } from '../exit-code.ts';
import type { CliIO } from '../io.ts';
import { loadValidDag } from '../load-one.ts';
import { loadNodeModule } from '../node-modules.ts';
import { flushOtel, otelFor, tracerOption } from '../otel-flag.ts';
import { IN_MEMORY_AWAIT_NOTE, tellParked } from '../parked.ts';
import { policyFor } from '../policy-file.ts';
import { openEvents } from '../run-events.ts';
import { claimRunStdio, runFlags, summaryIO } from '../run-flags.ts';
import { readInput } from '../run-input.ts';
import { printRunResult } from '../run-output.ts';
import { runProgress } from '../run-progress.ts';
import { documentFiles, interruptOnSigint, openRunStore, resumeCommand, resumeHint } from '../run-store.ts';
import { errorCollector } from '../run-summary.ts';

/**
 * Carries out `switchyard run <dag> --nodes <module>` (its options and behaviour are described in
 * commands/run.ts): validates the document, runs it over the input, records it, prints the summary.
 */
export async function runAction(
  dagPath: string,
  options: RunCommandOptions,
  io: CliIO,
  setExit: SetExit,
): Promise<void> {
  if (options.redis !== undefined) {
    const { redisRunAction } = await import('./run-redis.ts');
    await redisRunAction(dagPath, options, io, setExit);
    return;
  }
  // Flag values first: a wrong command line is a usage error whatever the files hold.
  const nodesModule = options.nodes;
  if (nodesModule === undefined) {
    throw new SwitchyardError(
      'E_USAGE',
      "required option '--nodes <module>' not specified — run switchyard --help for usage",
    );
  }
  const { deadlineMs, clock, random } = runFlags(options);
  claimRunStdio(dagPath, options);
  const nodes = await loadNodeModule(nodesModule, io.cwd);
  const { file, dag, library } = await loadValidDag(dagPath, io, nodes);
  const items = await readInput(options.input, io);
  const { policy, from } = await policyFor(file, options.policy, io, { dag, library });
  const otel = await otelFor(options.otel);
  const dispatcher = createDispatcher({
    nodes,
    library,
    ...tracerOption(otel),
    ...(policy === undefined ? {} : { policy }),
    ...(clock === undefined ? {} : { clock }),
    ...(random === undefined ? {} : { random }),
  });
  // Opened only once everything else checked out, so a wrong document or input leaves no empty file.
  const recorded = await openRunStore(options.store, io.cwd);
  let result: RunResult;
  // Ctrl-C aborts the run instead of killing the process: post phases still run, the summary says
  // where each item stopped, and a recorded run stays resumable.
  const interrupt = interruptOnSigint();
  try {
    // Chosen here so that the progress line names the run from its start: a killed run is resumed by it.
    const runId = randomUUID();
    printViewerUrl(io.err, recorded?.path, runId);
    const durable =
      recorded === undefined
        ? { store: false as const }
        : { store: recorded.store, runId, files: await documentFiles(file, dag, library, io.cwd) };
    const events = options.events === undefined ? undefined : await openEvents(options.events, io);
    const errors = errorCollector();
    const progress = runProgress(
      {
        total: items.length,
        runId: recorded === undefined ? undefined : runId,
        clock: clock ?? systemClock,
        flag: options.progress,
      },
      io,
    );
    let noted = false;
    const onEvent = (event: RunEvent) => {
      if (event.type === 'await.parked' && recorded === undefined && !noted) {
        noted = true;
        io.err(`switchyard: ${IN_MEMORY_AWAIT_NOTE}`);
      }
      errors.onEvent(event);
      progress.onEvent(event);
      events?.write(event);
    };
    try {
      result = await dispatcher.run(
        dag,
        {},
        {
          items,
          signal: interrupt.signal,
          ...(deadlineMs === undefined ? {} : { deadlineMs }),
          ...durable,
          // Recorded, a run whose items all wait for answers holds no process: the store keeps them.
          ...(recorded === undefined ? {} : { whenParked: options.keepWaiting === true ? 'wait' : 'stop' }),
          onEvent,
        },
      );
    } finally {
      progress.stop();
      await events?.close();
    }
    printRunResult(summaryIO(io, options), result, {
      json: options.json === true,
      policyFrom: from,
      virtualTime: options.virtualTime === true,
      errors: errors.errors,
      storePath: recorded?.path,
    });
  } finally {
    interrupt.dispose();
    await recorded?.store.close();
    await flushOtel(otel, io.err);
  }
  if (recorded !== undefined) {
    const again = resumeCommand(result.runId, nodesModule, recorded.path, io.cwd);
    resumeHint(io.err, result.status, interrupt.interrupted(), again);
    tellParked(
      io.err,
      result,
      { nodes: nodesModule, storePath: recorded.path, cwd: io.cwd },
      systemClock.wallNow(),
    );
  }
  setExit(runExitCode(result.status));
}
