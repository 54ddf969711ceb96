import { type Command, Option } from 'commander';
import { EXPORT_FORMATS, type ExportFormat } from '../../document/export-formats.ts';
import type { CliIO } from '../io.ts';

/** `switchyard export <dag> --format compact|expanded|nquads [-o file]`; `-o` is resolved against the cwd. */
export function registerExport(program: Command, io: CliIO): void {
  program
    .command('export')
    .description('write the DAG in another JSON-LD form, or as canonical N-Quads')
    .argument('<dag>', 'a DAG document')
    .addOption(new Option('--format <format>', 'output form').choices(EXPORT_FORMATS).default('compact'))
    .option('-o, --out <file>', 'write to a file instead of standard output')
    .action(async (file: string, options: { format: ExportFormat; out?: string }) => {
      const { exportAction } = await import('../actions/export.ts');
      await exportAction(file, options, io);
    });
}
