import type { Command } from 'commander';
import type { CliIO } from '../io.ts';
import { NODES_HELP } from '../option-help.ts';
import type { SetExit } from './index.ts';

/** The options of `switchyard validate`. */
export interface ValidateOptions {
  readonly json?: boolean;
  readonly nodes?: string;
  readonly policy?: string;
}

/** `switchyard validate <files or folders…>`: every problem of every document; exit 1 on any error. */
export function registerValidate(program: Command, io: CliIO, setExit: SetExit): void {
  program
    .command('validate')
    .description('check DAG documents: schema, references, reachability, and that every loop ends')
    .argument('<paths...>', 'documents (.jsonld) or folders of documents; - reads one from standard input')
    .option('--json', 'print the reports as JSON')
    .option('--nodes <module>', `${NODES_HELP}: also check node IRIs and outputs against them`)
    .option(
      '--policy <file>',
      'a runtime policy file (- for standard input): also check it, and its keys and gates against the documents',
    )
    .action(async (paths: string[], options: ValidateOptions) => {
      // The implementation is loaded only when the command runs, so `--help` and other commands skip it.
      const { validateAction } = await import('../actions/validate.ts');
      await validateAction(paths, options, io, setExit);
    });
}
