import type { Command } from 'commander';
import type { CliIO } from '../io.ts';
import { addStoreOption } from '../store-option.ts';

/** The options commander parses for `switchyard ui`. */
export interface UiCommandOptions {
  readonly store?: string;
  readonly dags?: string;
  readonly port?: string;
  readonly host?: string;
  readonly open?: boolean;
}

/**
 * `switchyard ui [--store path] [--dags folder] [--port 4317] [--host h] [--open]`: a local web viewer of the
 * documents of a folder and the runs of a store, live as runs go on. Read-only; on 127.0.0.1 unless `--host`.
 * @example
 * switchyard ui --dags dags --open
 */
export function registerUi(program: Command, io: CliIO): void {
  addStoreOption(
    program
      .command('ui')
      .description('serve a local web viewer of the documents and the recorded runs, live as runs go on')
      .option(
        '--dags <folder>',
        'the folder of DAG documents to show (default: dags/ if there is one, else .)',
      )
      .option('--port <n>', 'the port to listen on; 0 picks a free one (default 4317)')
      .option('--host <host>', 'the address to listen on (default 127.0.0.1: this machine only)')
      .option('--open', 'open the viewer in the default browser'),
  ).action(async (options: UiCommandOptions) => {
    const { uiAction } = await import('../../ui/command.ts');
    await uiAction(options, io);
  });
}
