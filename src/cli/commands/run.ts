import { resolve } from 'node:path';
import { finished } from 'node:stream/promises';
import type { Command } from 'commander';
import { SwitchyardError } from '../../errors.ts';
import { seededRandom } from '../../policy/random.ts';
import { createVirtualClock } from '../../policy/virtual-clock.ts';
import { createDispatcher } from '../../runtime/dispatcher.ts';
import type { RunEvent } from '../../runtime/events.ts';
import type { RunResult } from '../../runtime/run.ts';
import type { CliIO } from '../io.ts';
import { loadValidDag } from '../load-one.ts';
import { loadNodeModule } from '../node-modules.ts';
import { openOutput, writeError } from '../output.ts';
import { policyFor } from '../policy-file.ts';
import { readInput } from '../run-input.ts';
import { errorCollector, formatSummary } from '../run-summary.ts';
import { safeStringify } from '../safe-json.ts';
import type { SetExit } from './index.ts';

interface RunCommandOptions {
  readonly nodes: string;
  readonly input?: string;
  readonly policy?: string;
  readonly events?: string;
  readonly deadline?: string;
  readonly json?: boolean;
  readonly virtualTime?: boolean;
  readonly seed?: string;
}

/** One event as JSON; a reason a node gave that JSON cannot hold (a BigInt, a cycle) is written safely. */
function eventLine(event: RunEvent): string {
  try {
    return JSON.stringify(event);
  } catch {
    return safeStringify(event);
  }
}

/** The `--events` file: one JSON line per event; `close` flushes it and reports a failed write as `E_WRITE`. */
async function openEvents(
  path: string,
  cwd: string,
): Promise<{ write: (event: RunEvent) => void; close: () => Promise<void> }> {
  const stream = (await openOutput(path, cwd)).createWriteStream();
  let failure: unknown;
  stream.on('error', (error) => {
    failure ??= error;
  });
  return {
    write: (event) => {
      if (failure === undefined) stream.write(`${eventLine(event)}\n`);
    },
    close: async () => {
      if (failure === undefined) {
        await finished(stream.end()).catch((error: unknown) => {
          failure ??= error;
        });
      } else stream.destroy();
      if (failure !== undefined) throw writeError(resolve(cwd, path), failure, cwd);
    },
  };
}

function parseSeed(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const seed = Number(text);
  if (!Number.isSafeInteger(seed)) {
    throw new SwitchyardError('E_USAGE', `--seed must be a whole number, not '${text}'`);
  }
  return seed;
}

function parseDeadline(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = Number(text);
  if (!Number.isFinite(ms) || ms <= 0) {
    throw new SwitchyardError(
      'E_USAGE',
      `--deadline must be a positive number of milliseconds, not '${text}'`,
    );
  }
  return ms;
}

/**
 * `switchyard run <dag> --nodes <module>`: validates the document, runs it over the input and prints a summary.
 * The node module exports `nodes` (or a default export): an array of `defineNode(...)` results. Without
 * `--policy`, `<dag-stem>.policy.json` beside the document is used when it exists. Exit 0 when the run
 * completed, 1 when any item failed or was aborted, or the document or input is wrong.
 *
 * `--virtual-time` is for nodes that do no real I/O: the virtual clock jumps ahead whenever the event loop
 * would otherwise sit idle, so a node awaiting a socket, a file or a timer of its own sees its deadline
 * (and the run's) fire at once.
 * @example
 * switchyard run dags/compose-validate.jsonld --nodes nodes/demo.ts --input '{"topic":"whales"}' --events run.jsonl
 */
export function registerRun(program: Command, io: CliIO, setExit: SetExit): void {
  program
    .command('run')
    .description('run a DAG document over input items with a module of node implementations')
    .argument('<dag>', 'the DAG document (.jsonld)')
    .requiredOption('--nodes <module>', 'a .ts or .js module exporting `nodes`: an array of node definitions')
    .option(
      '--input <json>',
      'the input: JSON (an object, or an array of objects for several items) or @file.json (default: {})',
    )
    .option(
      '--policy <file>',
      'a runtime policy file (default: <dag-stem>.policy.json beside the DAG, if any)',
    )
    .option('--events <file>', 'write every event as one JSON line')
    .option('--deadline <ms>', 'the run deadline in milliseconds')
    .option(
      '--virtual-time',
      'for nodes that do no real I/O: run on a virtual clock, so back-offs and deadlines take no real time ' +
        '(a node awaiting real I/O sees its deadline fire at once)',
    )
    .option('--seed <n>', 'seed the back-off jitter, so the same run waits the same delays')
    .option('--json', 'print the result as JSON')
    .action(async (dagPath: string, options: RunCommandOptions) => {
      // Flag values first: a wrong command line is a usage error whatever the files hold.
      const deadlineMs = parseDeadline(options.deadline);
      const seed = parseSeed(options.seed);
      const nodes = await loadNodeModule(options.nodes, io.cwd);
      const { file, dag, library } = await loadValidDag(dagPath, io.cwd, nodes);
      const items = await readInput(options.input, io.cwd);
      const { policy, from } = await policyFor(file, options.policy, io.cwd, { dag, library });
      const dispatcher = createDispatcher({
        nodes,
        library,
        ...(policy === undefined ? {} : { policy }),
        ...(options.virtualTime ? { clock: createVirtualClock({ auto: true }) } : {}),
        ...(seed === undefined ? {} : { random: seededRandom(seed) }),
      });
      // Opened only once everything else checked out, so a wrong document or input leaves no empty file.
      const events = options.events === undefined ? undefined : await openEvents(options.events, io.cwd);
      const errors = errorCollector();
      const onEvent = (event: RunEvent) => {
        errors.onEvent(event);
        events?.write(event);
      };
      // Ctrl-C aborts the run instead of killing the process: post phases still run and the summary says
      // where each item stopped.
      const interrupt = new AbortController();
      const onSigint = () => interrupt.abort(new SwitchyardError('E_ABORTED', 'interrupted by the user'));
      process.once('SIGINT', onSigint);
      let result: RunResult;
      try {
        result = await dispatcher.run(
          dag,
          {},
          {
            items,
            signal: interrupt.signal,
            ...(deadlineMs === undefined ? {} : { deadlineMs }),
            onEvent,
          },
        );
      } finally {
        process.off('SIGINT', onSigint);
        await events?.close();
      }
      if (options.json) {
        const { items: ended, failures, aborted, ...rest } = result;
        io.out(
          safeStringify(
            {
              ...rest,
              policy: from ?? null,
              items: ended.map(({ state, ...item }) => ({ ...item, budgets: state.budgets })),
              failures: failures.map(({ state, ...failure }) => ({ ...failure, data: state.data })),
              aborted: aborted.map(({ state, ...entry }) => entry),
            },
            2,
          ),
        );
      } else {
        const summary = formatSummary(result, {
          policyFrom: from,
          virtualTime: options.virtualTime === true,
          errors: errors.errors,
        });
        for (const line of summary) io.out(line);
      }
      setExit(result.status === 'completed' ? 0 : 1);
    });
}
