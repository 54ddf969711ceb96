import { checkDocuments } from '../check.ts';
import type { SetExit } from '../commands/index.ts';
import type { ValidateOptions } from '../commands/validate.ts';
import { formatProblem, plural } from '../format.ts';
import type { CliIO } from '../io.ts';
import { loadNodeModule } from '../node-modules.ts';

/** Carries out `switchyard validate`: every problem of every document; exit 1 on any error. */
export async function validateAction(
  paths: string[],
  options: ValidateOptions,
  io: CliIO,
  setExit: SetExit,
): Promise<void> {
  const nodes = options.nodes === undefined ? undefined : await loadNodeModule(options.nodes, io.cwd);
  const { reports } = await checkDocuments(paths, io.cwd, nodes);
  if (reports.length === 0) {
    io.err(
      `switchyard: no .jsonld documents found in ${paths.join(', ')} — name DAG documents or folders holding them`,
    );
    setExit(1);
    return;
  }
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
