import { type Command, Option } from 'commander';
import { EXPORT_FORMATS, type ExportFormat, exportDag } from '../../document/export.ts';
import type { CliIO } from '../io.ts';
import { loadValidDag } from '../load-one.ts';
import { assertWritable, displayPath, writeOutput } from '../output.ts';

/** `switchyard export <dag> --format compact|expanded|nquads [-o file]`; `-o` is resolved against the cwd. */
export function registerExport(program: Command, io: CliIO): void {
  program
    .command('export')
    .description('write the DAG in another JSON-LD form, or as canonical N-Quads')
    .argument('<dag>', 'a DAG document')
    .addOption(new Option('--format <format>', 'output form').choices(EXPORT_FORMATS).default('compact'))
    .option('-o, --out <file>', 'write to a file instead of standard output')
    .action(async (file: string, options: { format: ExportFormat; out?: string }) => {
      if (options.out !== undefined) await assertWritable(options.out, io.cwd);
      const { dag } = await loadValidDag(file, io.cwd);
      const text = await exportDag(dag, options.format);
      if (options.out === undefined) {
        io.out(text);
        return;
      }
      await writeOutput(options.out, text.endsWith('\n') ? text : `${text}\n`, io.cwd);
      io.out(`wrote ${displayPath(options.out, io.cwd)}`);
    });
}
