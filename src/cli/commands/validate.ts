import type { Command } from 'commander';
import { loadDagFolder } from '../../document/load.ts';
import type { Problem } from '../../errors.ts';
import { analyse } from '../../graph/analyse.ts';
import { atWrittenPosition, formatProblem, plural } from '../format.ts';
import type { CliIO } from '../io.ts';
import { libraryAround } from '../library.ts';
import { loadNodeModule } from '../node-modules.ts';
import type { SetExit } from './index.ts';

/** The verdict on one document. */
export interface FileReport {
  readonly file: string;
  readonly valid: boolean;
  readonly problems: readonly Problem[];
}

/**
 * Loads and checks documents; sibling documents of each file are loaded too, so that embeds resolve.
 * Only the named files (and the files of named folders) are reported.
 */
export async function checkDocuments(
  paths: readonly string[],
  cwd: string,
  options: { nodes?: string } = {},
): Promise<FileReport[]> {
  const named = await loadDagFolder(paths);
  const loaded = [...named.results.values()].flatMap((r) => (r.dag ? [r.dag] : []));
  const library = await libraryAround(loaded, [...named.results.keys()], cwd);
  const nodes = options.nodes === undefined ? undefined : await loadNodeModule(options.nodes, cwd);
  const reports: FileReport[] = [];
  for (const [file, result] of named.results) {
    const problems = [...result.problems];
    if (result.dag) {
      problems.push(
        ...analyse(result.dag, { library, file, ...(nodes ? { nodes } : {}) }).map((p) =>
          atWrittenPosition(p, result),
        ),
      );
    }
    reports.push({ file, valid: !problems.some((p) => p.severity === 'error'), problems });
  }
  return reports;
}

/** `switchyard validate <files or folders…>`: every problem of every document; exit 1 on any error. */
export function registerValidate(program: Command, io: CliIO, setExit: SetExit): void {
  program
    .command('validate')
    .description('check DAG documents: schema, references, reachability, and that every loop ends')
    .argument('<paths...>', 'documents (.jsonld) or folders of documents')
    .option('--json', 'print the reports as JSON')
    .option('--nodes <module>', 'also check node IRIs and outputs against the nodes this module exports')
    .action(async (paths: string[], options: { json?: boolean; nodes?: string }) => {
      const reports = await checkDocuments(
        paths,
        io.cwd,
        options.nodes === undefined ? {} : { nodes: options.nodes },
      );
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
    });
}
