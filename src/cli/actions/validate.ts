import { checkDocuments } from '../check.ts';
import type { SetExit } from '../commands/index.ts';
import type { ValidateOptions } from '../commands/validate.ts';
import { formatProblem, plural } from '../format.ts';
import type { CliIO } from '../io.ts';
import { stdinDocument } from '../load-one.ts';
import { noDocuments } from '../messages.ts';
import { loadNodeModule } from '../node-modules.ts';
import { checkPolicyFile } from '../policy-check.ts';
import { claimStdin, isDash } from '../stdio.ts';

/**
 * Carries out `switchyard validate`: every problem of every document, and of the policy given with
 * `--policy` (checked against them); exit 1 on any error.
 */
export async function validateAction(
  paths: string[],
  options: ValidateOptions,
  io: CliIO,
  setExit: SetExit,
): Promise<void> {
  claimStdin([
    { flag: '<paths> -', used: paths.some(isDash) },
    { flag: '--policy -', used: isDash(options.policy) },
  ]);
  const nodes = options.nodes === undefined ? undefined : await loadNodeModule(options.nodes, io.cwd);
  const stdin = paths.some(isDash) ? await stdinDocument(io) : undefined;
  const { reports: documents, valid, library } = await checkDocuments(paths, io.cwd, nodes, stdin);
  if (documents.length === 0) throw noDocuments(paths);
  const policy =
    options.policy === undefined
      ? undefined
      : await checkPolicyFile(options.policy, io, valid.values(), library);
  const reports = policy === undefined ? documents : [...documents, policy];
  const errors = reports.flatMap((r) => r.problems).filter((p) => p.severity === 'error').length;
  const warnings = reports.flatMap((r) => r.problems).length - errors;
  if (options.json) {
    io.out(JSON.stringify(reports, null, 2));
  } else {
    for (const report of reports) {
      for (const p of report.problems) io.out(formatProblem(p, io.cwd));
    }
    const invalid = reports.filter((r) => !r.valid).length;
    const checked = `${plural(documents.length, 'document')}${policy === undefined ? '' : ' and 1 policy'}`;
    io.out(
      `${checked} checked: ${invalid === 0 ? 'all valid' : `${invalid} invalid`}, ` +
        `${plural(errors, 'error')}, ${plural(warnings, 'warning')}`,
    );
  }
  setExit(errors > 0 ? 1 : 0);
}
