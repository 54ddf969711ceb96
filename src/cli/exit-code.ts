/**
 * The exit codes of both programs (`switchyard` and `archivist`), one convention for every command:
 * 0 when all went well, 1 when the command line was right but what it names is not (a document, a policy,
 * the input, a node module, a file to write) or a run did not complete, 2 when the command line itself is
 * wrong (an unknown option, a missing argument, a flag value that is not allowed). `archivist ask` adds 3
 * when the model provider refused the key or the model and the answer came from the catalog instead.
 * `switchyard run`, `resume` and `answer` add 4 when the run stopped with every item left waiting for an
 * answer (status `waiting`): nothing failed, and `switchyard answer` moves it on.
 */
import { CommanderError } from 'commander';
import { isSwitchyardError } from '../errors.ts';

/** Everything went well; also `--help` and `--version`. */
export const EXIT_OK = 0;
/** A problem in what the command names, or a run that did not complete. */
export const EXIT_PROBLEM = 1;
/** The command line is wrong: fix the options or arguments. */
export const EXIT_USAGE = 2;
/**
 * `archivist ask`: the model provider refused the key or the model, so the answer printed came from the
 * catalog, without the model that was asked for.
 */
export const EXIT_MODEL_REFUSED = 3;
/**
 * `switchyard run`, `resume` and `answer`: the run stopped with every item left parked at an await, waiting
 * for an answer (run status `waiting`); stderr has the command that answers each.
 */
export const EXIT_WAITING = 4;

/** The exit code of `run`, `resume` and `answer` for a run that ended with `status`. */
export function runExitCode(status: string): number {
  if (status === 'completed') return EXIT_OK;
  return status === 'waiting' ? EXIT_WAITING : EXIT_PROBLEM;
}

/**
 * The exit code for an error that ended a command: commander's own errors and `E_USAGE` are usage errors,
 * every other Switchyard error is a problem in the input; undefined for anything else (a bug).
 */
export function exitCodeOf(error: unknown): number | undefined {
  if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
  if (isSwitchyardError(error)) return error.code === 'E_USAGE' ? EXIT_USAGE : EXIT_PROBLEM;
  return undefined;
}
