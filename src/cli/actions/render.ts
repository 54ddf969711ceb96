import { basename, extname, join, relative, resolve } from 'node:path';
import { expandPaths } from '../../document/load.ts';
import type { Dag } from '../../document/model.ts';
import { SwitchyardError } from '../../errors.ts';
import { toMermaid } from '../../render/mermaid.ts';
import { formatOfPath, RENDER_FORMATS, type RenderFormat } from '../../render/output-format.ts';
import { createRenderer, type Renderer } from '../../render/renderer.ts';
import type { Theme } from '../../render/theme.ts';
import { readTrace, type TraceSummary } from '../../render/trace.ts';
import { type CheckedDocuments, checkDocuments } from '../check.ts';
import type { SetExit } from '../commands/index.ts';
import type { RenderCliOptions } from '../commands/render.ts';
import { formatProblem } from '../format.ts';
import type { CliIO } from '../io.ts';
import { assertFolderWritable, assertWritable, displayPath, ensureFolder, writeOutput } from '../output.ts';
import { readRunTrace } from '../runs/trace.ts';

function oneOf<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  fallback: T,
  flag: string,
): T {
  if (value === undefined) return fallback;
  const found = allowed.find((a) => a === value);
  if (!found) {
    throw new SwitchyardError(
      'E_USAGE',
      `${flag} ${value} is not supported: use one of ${allowed.join(', ')}`,
    );
  }
  return found;
}

/** Output paths for a batch: `<dir>/<stem>.<format>`, or the path below cwd with `-` for `/` when stems clash. */
function outputPaths(files: readonly string[], dir: string, format: RenderFormat, cwd: string): string[] {
  const stem = (file: string) => basename(file, extname(file));
  const counts = new Map<string, number>();
  for (const file of files) counts.set(stem(file), (counts.get(stem(file)) ?? 0) + 1);
  return files.map((file) => {
    const name =
      (counts.get(stem(file)) ?? 0) > 1
        ? relative(cwd, file)
            .replace(/\.[^./\\]*$/u, '')
            .replace(/[/\\]/gu, '-')
        : stem(file);
    return join(dir, `${name}.${format}`);
  });
}

/** Loads and analyses every document; returns the valid ones, or undefined after printing every problem. */
async function loadAll(files: readonly string[], io: CliIO): Promise<CheckedDocuments | undefined> {
  const checked = await checkDocuments(files, io.cwd);
  if (checked.reports.length === 0) {
    throw new SwitchyardError(
      'E_USAGE',
      `no .jsonld documents found in ${files.join(', ')}: name DAG documents or folders`,
    );
  }
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
  const files = paths.map((p) => resolve(io.cwd, p));
  let format: RenderFormat;
  let targets: (loaded: readonly string[]) => string[];
  if (options.output !== undefined) {
    if (options.outDir !== undefined)
      throw new SwitchyardError('E_USAGE', 'give either -o <file> or --out-dir <dir>, not both');
    format = formatOfPath(options.output);
    if (options.format !== undefined && options.format.toLowerCase() !== format) {
      throw new SwitchyardError(
        'E_USAGE',
        `-o ${options.output} says ${format} but --format says ${options.format}: drop --format or give -o a .${options.format.toLowerCase()} path`,
      );
    }
    const documents = await expandPaths(files);
    if (documents.length > 1) {
      throw new SwitchyardError(
        'E_USAGE',
        `-o takes one document, but ${paths.join(', ')} hold ${documents.length}: use --out-dir <dir> for several`,
      );
    }
    const output = resolve(io.cwd, options.output);
    await assertWritable(output, io.cwd);
    targets = () => [output];
  } else if (options.outDir !== undefined) {
    format = oneOf(options.format, RENDER_FORMATS, 'svg', '--format');
    const dir = resolve(io.cwd, options.outDir);
    await assertFolderWritable(dir, io.cwd);
    targets = (loaded) => outputPaths(loaded, dir, format, io.cwd);
  } else {
    throw new SwitchyardError('E_USAGE', 'say where to write: -o <file.svg|.png|.mmd> or --out-dir <dir>');
  }

  if (options.trace !== undefined && options.run !== undefined)
    throw new SwitchyardError('E_USAGE', 'give either --trace <file> or --run <id>, not both');
  const trace: TraceSummary | undefined =
    options.run !== undefined
      ? await readRunTrace(options.run, options, io.cwd)
      : options.trace === undefined
        ? undefined
        : await readTrace(resolve(io.cwd, options.trace));
  const loaded = await loadAll(files, io);
  if (!loaded) {
    setExit(1);
    return;
  }
  const sources = [...loaded.valid.keys()];
  const outputs = targets(sources);
  if (options.outDir !== undefined) await ensureFolder(options.outDir, io.cwd);
  let renderer: Renderer | undefined;
  try {
    for (const [i, file] of sources.entries()) {
      const dag = loaded.valid.get(file) as Dag;
      if (trace && options.trace !== undefined && !trace.dags.has(dag.id)) {
        io.err(`warning: ${displayPath(options.trace, io.cwd)} has no events of ${dag.id}`);
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
      const output = outputs[i] as string;
      let data: string | Uint8Array = text;
      if (format !== 'mmd') {
        renderer ??= await createRenderer({ chromium: options.chromium, theme });
        data = await renderer.render(text, format, { theme });
      }
      await writeOutput(output, data, io.cwd);
      io.out(`wrote ${displayPath(output, io.cwd)}`);
    }
  } finally {
    await renderer?.close();
  }
}
