import { Command, CommanderError } from 'commander';
import { isSwitchyardError } from '../errors.ts';
import { registerCommands } from './commands/index.ts';
import { type CliIO, processIO } from './io.ts';

/**
 * Runs the `switchyard` command line and resolves to the exit code.
 * User mistakes print one line per problem and exit non-zero; only bugs print a stack trace.
 * @example
 * process.exitCode = await main(process.argv);
 */
export async function main(argv: readonly string[], io: CliIO = processIO()): Promise<number> {
  let exitCode = 0;
  const program = new Command('switchyard')
    .description('Check, inspect, render and run DAGs written as JSON-LD documents.')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) })
    .showHelpAfterError('(run switchyard --help for usage)');
  registerCommands(program, io, (code) => {
    exitCode = Math.max(exitCode, code);
  });
  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? 0 : 2;
    }
    if (isSwitchyardError(error)) {
      io.err(`switchyard: ${error.message}`);
      return 1;
    }
    throw error;
  }
  return exitCode;
}
