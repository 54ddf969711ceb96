import type { Command } from 'commander';
import type { CliIO } from '../io.ts';
import {
  addProgressOptions,
  EVENTS_STDOUT_HELP,
  JSON_HELP,
  KEEP_WAITING_HELP,
  NO_STORE_HELP,
  NODES_HELP,
  OTEL_HELP,
  POLICY_HELP,
} from '../option-help.ts';
import { addStoreOption } from '../store-option.ts';
import type { SetExit } from './index.ts';

/** The options commander parses for this command. */
export interface RunCommandOptions {
  /** Required, except with `--redis`: the workers have the nodes. */
  readonly nodes?: string;
  readonly input?: string;
  readonly policy?: string;
  readonly events?: string;
  readonly deadline?: string;
  readonly json?: boolean;
  readonly virtualTime?: boolean;
  readonly seed?: string;
  /** A path, or false for `--no-store`. */
  readonly store?: string | false;
  /** Submit to the workers on this Redis instead of running here. */
  readonly redis?: string;
  readonly wait?: boolean;
  readonly queue?: string;
  /** Keep the process waiting once every item left is parked at an await (`whenParked: 'wait'`). */
  readonly keepWaiting?: boolean;
  /** `--progress` (true) or `--no-progress` (false); undefined: on a terminal only. */
  readonly progress?: boolean;
  /** Export traces over OTLP/HTTP. */
  readonly otel?: boolean;
}

/**
 * `switchyard run <dag> --nodes <module>`: validates the document, runs it over the input and prints a summary.
 * The node module exports `nodes` (or a default export): an array of `defineNode(...)` results. Without
 * `--policy`, `<dag-stem>.policy.json` beside the document is used when it exists. Exit 0 when the run
 * completed, 1 when any item failed or was aborted, or the document or input is wrong.
 *
 * The run is recorded in a store (`--store`, else `$SWITCHYARD_STORE`, else `.switchyard/runs.db`; `--no-store`
 * records nothing), so that `switchyard resume <run-id>` goes on with it after a crash or Ctrl-C. A recorded
 * run whose items left all wait for an answer at an await ends `waiting` (exit 4), printing on stderr the
 * `switchyard answer` command of each; `--keep-waiting` keeps the process for answers and deadlines instead.
 *
 * With `--redis <url>` the run is carried by `switchyard worker`s on that Redis instead of this process and
 * recorded in that Redis: this process prints the run id and how to follow it, and exits 0 once the run is
 * submitted; with `--wait` it follows the run's events instead and prints the summary a local run prints.
 *
 * `-` reads the document from standard input, as `--input @-` (or `-`) and `--policy -` read theirs (one of them per
 * command line); `--events -` writes the events to standard output, and the summary then goes to stderr.
 * On a terminal a progress line counts the items ended and counts down each wait; `--progress` prints it as
 * plain lines off a terminal too, `--no-progress` hides it.
 *
 * `--virtual-time` is for nodes that do no real I/O: the virtual clock jumps ahead whenever the event loop
 * would otherwise sit idle, so a node awaiting a socket, a file or a timer of its own sees its deadline
 * (and the run's) fire at once.
 * @example
 * switchyard run dags/compose-validate.jsonld --nodes nodes/demo.ts --input '{"topic":"whales"}' --events run.jsonl
 */
export function registerRun(program: Command, io: CliIO, setExit: SetExit): void {
  const command = program
    .command('run')
    .description('run a DAG document over input items with a module of node implementations')
    .argument('<dag>', 'the DAG document (.jsonld), or - to read it from standard input')
    .option('--nodes <module>', `${NODES_HELP} (required, except with --redis: the workers have the nodes)`)
    .option(
      '--input <json>',
      'the input: JSON (an object, or an array of objects for several items), @file.json, or @- (or -) for standard input (default: {})',
    )
    .option('--policy <file>', `${POLICY_HELP} (default: <dag-stem>.policy.json beside the DAG, if any)`)
    .option('--events <file>', EVENTS_STDOUT_HELP)
    .option('--deadline <ms>', 'the run deadline in milliseconds')
    .option(
      '--virtual-time',
      'for nodes that do no real I/O: run on a virtual clock, so back-offs and deadlines take no real time ' +
        '(a node awaiting real I/O sees its deadline fire at once)',
    )
    .option('--seed <n>', 'seed the back-off jitter, so the same run waits the same delays')
    .option('--json', JSON_HELP)
    .option('--keep-waiting', KEEP_WAITING_HELP)
    .option('--otel', OTEL_HELP)
    .option('--redis <url>', 'submit the run to `switchyard worker`s on this Redis (redis://host:port)')
    .option(
      '--wait',
      'with --redis: follow the run’s events and print its summary when it ends (without: submit, print the run id, exit)',
    )
    .option('--queue <name>', 'with --redis: the queue the workers take jobs from (default: switchyard)');
  addStoreOption(addProgressOptions(command))
    .option('--no-store', NO_STORE_HELP)
    .action(async (dagPath: string, options: RunCommandOptions) => {
      const { runAction } = await import('../actions/run.ts');
      await runAction(dagPath, options, io, setExit);
    });
}
