import { type Command, Option } from 'commander';
import { EXPORT_FORMATS, type ExportFormat } from '../../document/export-formats.ts';
import type { CliIO } from '../io.ts';

/** The options commander parses for `switchyard export`. */
export interface ExportOptions {
  readonly format: ExportFormat;
  readonly output?: string;
  /** `--out`, the hidden former name of `--output`, kept so that scripts written for it go on working. */
  readonly out?: string;
  readonly json?: boolean;
}

/**
 * `switchyard export <dag> --format compact|expanded|nquads [-o file] [--json]`: the document in another
 * form. `-o` is resolved against the cwd; `-o -` (as no `-o`) writes standard output.
 */
export function registerExport(program: Command, io: CliIO): void {
  program
    .command('export')
    .description('write the DAG in another JSON-LD form, or as canonical N-Quads')
    .argument('<dag>', 'a DAG document, or - to read it from standard input')
    .addOption(new Option('--format <format>', 'output form').choices(EXPORT_FORMATS).default('compact'))
    .option('-o, --output <file>', 'the file to write (default, or -: standard output)')
    .addOption(new Option('--out <file>').hideHelp())
    .option('--json', 'print one JSON object: the IRI, the form, and the document or the file written')
    .action(async (file: string, options: ExportOptions) => {
      const { exportAction } = await import('../actions/export.ts');
      await exportAction(file, options, io);
    });
}
