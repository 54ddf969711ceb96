import { type ExportFormat, exportDag } from '../../document/export.ts';
import type { CliIO } from '../io.ts';
import { loadValidDag } from '../load-one.ts';
import { assertWritable, displayPath, writeOutput } from '../output.ts';

/** `switchyard export <dag> --format compact|expanded|nquads [-o file]`; `-o` is resolved against the cwd. */
export async function exportAction(
  file: string,
  options: { format: ExportFormat; out?: string },
  io: CliIO,
): Promise<void> {
  if (options.out !== undefined) await assertWritable(options.out, io.cwd);
  const { dag } = await loadValidDag(file, io.cwd);
  const text = await exportDag(dag, options.format);
  if (options.out === undefined) {
    io.out(text);
    return;
  }
  await writeOutput(options.out, text.endsWith('\n') ? text : `${text}\n`, io.cwd);
  io.out(`wrote ${displayPath(options.out, io.cwd)}`);
}
