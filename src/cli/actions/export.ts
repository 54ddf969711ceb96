import { type ExportFormat, exportDag } from '../../document/export.ts';
import { SwitchyardError } from '../../errors.ts';
import type { ExportOptions } from '../commands/export.ts';
import type { CliIO } from '../io.ts';
import { loadValidDag } from '../load-one.ts';
import { assertWritable, displayPath, writeOutput } from '../output.ts';
import { isDash, writeStdout } from '../stdio.ts';

/** The file `-o`/`--output` names (or the hidden `--out`); undefined for standard output. */
function outputOf(options: ExportOptions): string | undefined {
  if (options.output !== undefined && options.out !== undefined && options.output !== options.out) {
    throw new SwitchyardError(
      'E_USAGE',
      `give the output once: -o ${options.output} or --out ${options.out}`,
    );
  }
  const output = options.output ?? options.out;
  return output === undefined || isDash(output) ? undefined : output;
}

/** The exported text as `--json` holds it: JSON-LD forms as JSON, N-Quads as a string. */
function documentValue(text: string, format: ExportFormat): unknown {
  return format === 'nquads' ? text : (JSON.parse(text) as unknown);
}

/**
 * `switchyard export <dag> --format compact|expanded|nquads [-o file] [--json]`; `-o` is resolved against
 * the cwd, and `-o -` writes standard output.
 */
export async function exportAction(file: string, options: ExportOptions, io: CliIO): Promise<void> {
  const output = outputOf(options);
  if (output !== undefined) await assertWritable(output, io.cwd);
  const { dag } = await loadValidDag(file, io);
  const text = await exportDag(dag, options.format);
  const ended = text.endsWith('\n') ? text : `${text}\n`;
  if (output === undefined) {
    if (options.json === true) {
      const document = documentValue(text, options.format);
      io.out(JSON.stringify({ id: dag.id, format: options.format, document }, null, 2));
    } else await writeStdout(io, ended);
    return;
  }
  await writeOutput(output, ended, io.cwd);
  const shown = displayPath(output, io.cwd);
  if (options.json === true)
    io.out(JSON.stringify({ id: dag.id, format: options.format, wrote: shown }, null, 2));
  else io.out(`wrote ${shown}`);
}
