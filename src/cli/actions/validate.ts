import { checkDocuments } from '../check.ts';
import type { SetExit } from '../commands/index.ts';
import type { ValidateOptions } from '../commands/validate.ts';
import { formatProblem, plural } from '../format.ts';
import type { CliIO } from '../io.ts';
import { stdinDocument } from '../load-one.ts';
import { noDocuments } from '../messages.ts';
import { loadNodeModule } from '../node-modules.ts';
import { isDash } from '../stdio.ts';

/** Carries out `switchyard validate`: every problem of every document; exit 1 on any error. */
export async function validateAction(
  paths: string[],
  options: ValidateOptions,
  io: CliIO,
  setExit: SetExit,
): Promise<void> {
  const nodes = options.nodes === undefined ? undefined : await loadNodeModule(options.nodes, io.cwd);
  const stdin = paths.some(isDash) ? await stdinDocument(io) : undefined;
  const { reports } = await checkDocuments(paths, io.cwd, nodes, stdin);
  if (reports.length === 0) throw noDocuments(paths);
  const errors = reports.flatMap((r) => r.problems).filter((p) => p.severity === 'error').length;
  const warnings = reports.flatMap((r) => r.problems).length - errors;
  if (options.json) {
    io.out(JSON.stringify(reports, null, 2));
  } else {
    for (const report of reports) {
      for (const p of report.problems) io.out(formatProblem(p, io.cwd));
    }
    const invalid = reports.filter((r) => !r.valid).length;
    io.out(
      `${plural(reports.length, 'document')} checked: ${invalid === 0 ? 'all valid' : `${invalid} invalid`}, ` +
        `${plural(errors, 'error')}, ${plural(warnings, 'warning')}`,
    );
  }
  setExit(errors > 0 ? 1 : 0);
}
