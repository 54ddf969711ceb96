import type { Dag } from '../../document/model.ts';
import { SwitchyardError } from '../../errors.ts';
import { toMermaid } from '../../render/mermaid.ts';
import { createRenderer, type Renderer } from '../../render/renderer.ts';
import type { Theme } from '../../render/theme.ts';
import type { TraceSummary } from '../../render/trace.ts';
import { type CheckedDocuments, checkDocuments } from '../check.ts';
import type { SetExit } from '../commands/index.ts';
import type { RenderCliOptions } from '../commands/render.ts';
import { formatProblem } from '../format.ts';
import type { CliIO } from '../io.ts';
import { stdinDocument } from '../load-one.ts';
import { noDocuments } from '../messages.ts';
import { displayPath, ensureFolder, writeOutput } from '../output.ts';
import { oneOf, renderTargets } from '../render-targets.ts';
import { readRunTrace, readTraceOption } from '../runs/trace.ts';
import { claimStdin, isDash, STDIN_NAME, writeStdout } from '../stdio.ts';

/** Loads and analyses every document; returns the valid ones, or undefined after printing every problem. */
async function loadAll(
  paths: readonly string[],
  io: CliIO,
  stdin: string | undefined,
): Promise<CheckedDocuments | undefined> {
  const checked = await checkDocuments(paths, io.cwd, undefined, stdin);
  if (checked.reports.length === 0) throw noDocuments(paths);
  for (const report of checked.reports) {
    for (const p of report.problems) if (p.severity === 'error') io.err(formatProblem(p, io.cwd));
  }
  return checked.reports.every((r) => r.valid) ? checked : undefined;
}

/**
 * Carries out `switchyard render` (described in commands/render.ts): checks every output path first, then
 * writes one diagram per valid document, all with one browser.
 */
export async function renderAction(
  paths: string[],
  options: RenderCliOptions,
  io: CliIO,
  setExit: SetExit,
): Promise<void> {
  const theme = oneOf<Theme>(options.theme, ['light', 'dark'], 'light', '--theme');
  const direction = oneOf(options.direction, ['TD', 'LR'] as const, 'TD', '--direction');
  claimStdin([
    { flag: '<paths> -', used: paths.some(isDash) },
    { flag: '--trace -', used: isDash(options.trace) },
  ]);
  const target = await renderTargets(paths, options, io);
  const { format } = target;
  if (options.trace !== undefined && options.run !== undefined)
    throw new SwitchyardError('E_USAGE', 'give either --trace <file> or --run <id>, not both');
  const trace: TraceSummary | undefined =
    options.run !== undefined
      ? await readRunTrace(options.run, options, io.cwd)
      : options.trace === undefined
        ? undefined
        : await readTraceOption(options.trace, io);
  const stdin = paths.some(isDash) ? await stdinDocument(io) : undefined;
  const loaded = await loadAll(paths, io, stdin);
  if (!loaded) {
    setExit(1);
    return;
  }
  const sources = [...loaded.valid.keys()];
  const outputs = target.paths(sources);
  if (target.outDir !== undefined) await ensureFolder(target.outDir, io.cwd);
  let renderer: Renderer | undefined;
  try {
    for (const [i, file] of sources.entries()) {
      const dag = loaded.valid.get(file) as Dag;
      if (trace && options.trace !== undefined && !trace.dags.has(dag.id)) {
        const traced = isDash(options.trace) ? STDIN_NAME : displayPath(options.trace, io.cwd);
        io.err(`warning: ${traced} has no events of ${dag.id}`);
      }
      if (trace && options.run !== undefined && !trace.dags.has(dag.id)) {
        io.err(`warning: run ${options.run} has no events of ${dag.id}`);
      }
      const text = toMermaid(dag, {
        theme,
        direction,
        library: loaded.library,
        expandEmbedded: options.expand === true,
        ...(trace ? { trace } : {}),
      });
      let data: string | Uint8Array = text;
      if (format !== 'mmd') {
        renderer ??= await createRenderer({ chromium: options.chromium, theme });
        data = await renderer.render(text, format, { theme });
      }
      if (target.stdout) {
        await writeStdout(io, typeof data === 'string' && !data.endsWith('\n') ? `${data}\n` : data);
        continue;
      }
      const output = outputs[i] as string;
      await writeOutput(output, data, io.cwd);
      io.out(`wrote ${displayPath(output, io.cwd)}`);
    }
  } finally {
    await renderer?.close();
  }
}
