import { Command, CommanderError } from 'commander';
import { isSwitchyardError } from '../errors.ts';
import { VERSION } from '../version.ts';
import { registerCommands } from './commands/index.ts';
import { EXIT_PROBLEM, exitCodeOf } from './exit-code.ts';
import { formatProblem, plural } from './format.ts';
import { type CliIO, processIO } from './io.ts';
import { displayPath } from './output.ts';
import { refusalLine, usageLine } from './refusal.ts';
import { refuseDashOptions } from './stdio.ts';

/**
 * Runs the `switchyard` command line and resolves to the exit code.
 * User mistakes print one line per problem and exit with the code of {@link exitCodeOf} (2 for a wrong
 * command line, 1 for a problem in what it names); only bugs print a stack trace.
 * @example
 * process.exitCode = await main(process.argv);
 */
export async function main(argv: readonly string[], io: CliIO = processIO()): Promise<number> {
  let exitCode = 0;
  const program = new Command('switchyard')
    .description('Check, inspect, render and run DAGs written as JSON-LD documents.')
    .version(VERSION, '-V, --version', 'print the version of switchyard')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.out(s),
      writeErr: (s) => io.err(s),
      outputError: (s, write) => write(usageLine('switchyard', s)),
    });
  refuseDashOptions(program);
  registerCommands(program, io, (code) => {
    exitCode = Math.max(exitCode, code);
  });
  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) return exitCodeOf(error) ?? EXIT_PROBLEM;
    if (isSwitchyardError(error)) {
      const code = exitCodeOf(error) ?? EXIT_PROBLEM;
      // An error that carries several problems in a one-line message (a policy file, say) is printed as
      // the problems themselves, one a line with its position, then the summary.
      if (error.problems.length > 1 && !error.message.includes('\n')) {
        for (const p of error.problems) io.err(formatProblem(p, io.cwd));
        const where = error.problems[0]?.file;
        io.err(
          refusalLine(
            'switchyard',
            `${where === undefined ? '' : `${displayPath(where, io.cwd)}: `}${plural(error.problems.length, 'problem')}; fix them and run again`,
            error.code,
          ),
        );
        return code;
      }
      io.err(refusalLine('switchyard', error.message, error.code));
      return code;
    }
    throw error;
  }
  return exitCode;
}
