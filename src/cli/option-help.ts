/**
 * Flags that several commands of both programs take, named and described once, so that one flag has one
 * name and one meaning wherever it appears (`switchyard --help`, `archivist --help`).
 */
import type { Command } from 'commander';

/** `--nodes <module>`. */
export const NODES_HELP = 'a .ts or .js module exporting `nodes`: an array of node definitions';

/** `--events <file>` of `run`, `resume` and `archivist ask`. */
export const EVENTS_HELP = 'write every event of the run as one JSON line';

/** `--events <file>` where `-` writes the lines to standard output. */
export const EVENTS_STDOUT_HELP = `${EVENTS_HELP} (- for standard output)`;

/** `--json` of the commands whose result a machine may read. */
export const JSON_HELP = 'print the result as JSON';

/** `--no-store` of `run` and `archivist`. */
export const NO_STORE_HELP = 'record nothing: the run cannot be resumed or listed';

/** `--keep-waiting` of `run` and `resume`. */
export const KEEP_WAITING_HELP =
  'once every item left waits for an answer at an await, keep the process running to take answers given from elsewhere (found in the store) and deadlines, instead of ending with the run waiting (exit 4)';

/** `--policy <file>` of the commands that time a run. */
export const POLICY_HELP = 'a runtime policy file (- for standard input)';

/**
 * Adds `--progress` and `--no-progress`: the progress line of a run, which without either shows on a
 * terminal only.
 * @example
 * addProgressOptions(program.command('run'));
 */
export function addProgressOptions(command: Command): Command {
  return command
    .option(
      '--progress',
      'show progress on stderr even when it is not a terminal: plain lines for each wait (which placement, why, time left) and each item ended',
    )
    .option('--no-progress', 'show no progress line, even on a terminal');
}

/** `--otel` of `run`, `resume`, `worker` and the Archivist. */
export const OTEL_HELP =
  'export traces over OTLP/HTTP (to $OTEL_EXPORTER_OTLP_ENDPOINT or $OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, default http://localhost:4318; service $OTEL_SERVICE_NAME, default switchyard)';
