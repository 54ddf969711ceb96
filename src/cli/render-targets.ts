/**
 * Where `switchyard render` writes: one file (`-o x.svg`), standard output (`-o -`, in the `--format` asked
 * for), or one file per document in a folder (`--out-dir`). Every target is checked before any rendering.
 */
import { basename, extname, join, relative, resolve } from 'node:path';
import { expandPaths } from '../document/load.ts';
import { SwitchyardError } from '../errors.ts';
import { formatOfPath, RENDER_FORMATS, type RenderFormat } from '../render/output-format.ts';
import type { RenderCliOptions } from './commands/render.ts';
import type { CliIO } from './io.ts';
import { assertFolderWritable, assertWritable } from './output.ts';
import { isDash, STDIN_NAME } from './stdio.ts';

/** `value` when it is one of `allowed`, `fallback` when absent; anything else is `E_USAGE` naming `flag`. */
export function oneOf<T extends string>(
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

/** Where the diagrams go. */
export interface RenderTargets {
  readonly format: RenderFormat;
  /** True for `-o -`: the one diagram goes to standard output. */
  readonly stdout: boolean;
  /** The folder of `--out-dir`, created once the documents are known to be valid. */
  readonly outDir?: string;
  /** The file each loaded document is written to (unused for standard output). */
  readonly paths: (loaded: readonly string[]) => string[];
}

/** Output paths for a batch: `<dir>/<stem>.<format>`, or the path below cwd with `-` for `/` when stems clash. */
function outputPaths(files: readonly string[], dir: string, format: RenderFormat, cwd: string): string[] {
  const stem = (file: string) => (file === STDIN_NAME ? 'stdin' : basename(file, extname(file)));
  const counts = new Map<string, number>();
  for (const file of files) counts.set(stem(file), (counts.get(stem(file)) ?? 0) + 1);
  return files.map((file) => {
    const name =
      (counts.get(stem(file)) ?? 0) > 1 && file !== STDIN_NAME
        ? relative(cwd, file)
            .replace(/\.[^./\\]*$/u, '')
            .replace(/[/\\]/gu, '-')
        : stem(file);
    return join(dir, `${name}.${format}`);
  });
}

/** How many documents `paths` name: `-` is one, a folder its `*.jsonld` files. */
async function documentCount(paths: readonly string[], cwd: string): Promise<number> {
  const files = await expandPaths(paths.filter((p) => !isDash(p)).map((p) => resolve(cwd, p)));
  return files.length + (paths.some(isDash) ? 1 : 0);
}

/** The format of `-o <file>`: its extension's, or for `-o -` the `--format` asked for (default svg). */
function singleFormat(output: string, format: string | undefined, io: CliIO): RenderFormat {
  if (isDash(output)) {
    const chosen = oneOf(format?.toLowerCase(), RENDER_FORMATS, 'svg', '--format');
    if (chosen === 'png' && io.isTTY) {
      throw new SwitchyardError(
        'E_USAGE',
        '-o - --format png would write image bytes to this terminal — redirect standard output to a file or a pipe, or give -o out.png',
      );
    }
    return chosen;
  }
  // An unknown --format is named as such, before it is compared with the path's extension.
  const asked =
    format === undefined ? undefined : oneOf(format.toLowerCase(), RENDER_FORMATS, 'svg', '--format');
  const fromPath = formatOfPath(output);
  if (asked !== undefined && asked !== fromPath) {
    throw new SwitchyardError(
      'E_USAGE',
      `-o ${output} says ${fromPath} but --format says ${format}: drop --format or give -o a .${asked} path`,
    );
  }
  return fromPath;
}

/**
 * The targets `options` ask for, checked: `-o` and `--out-dir` exclude each other, `-o` takes one document,
 * a file's folder must take files and a folder must be creatable, PNG bytes never go to a terminal.
 */
export async function renderTargets(
  paths: readonly string[],
  options: RenderCliOptions,
  io: CliIO,
): Promise<RenderTargets> {
  if (options.output !== undefined) {
    if (options.outDir !== undefined)
      throw new SwitchyardError('E_USAGE', 'give either -o <file> or --out-dir <dir>, not both');
    const format = singleFormat(options.output, options.format, io);
    const count = await documentCount(paths, io.cwd);
    if (count > 1) {
      throw new SwitchyardError(
        'E_USAGE',
        `-o takes one document, but ${paths.join(', ')} hold ${count}: use --out-dir <dir> for several`,
      );
    }
    if (isDash(options.output)) return { format, stdout: true, paths: () => [] };
    const output = resolve(io.cwd, options.output);
    await assertWritable(output, io.cwd);
    return { format, stdout: false, paths: () => [output] };
  }
  if (options.outDir !== undefined) {
    const format = oneOf(options.format, RENDER_FORMATS, 'svg', '--format');
    const dir = resolve(io.cwd, options.outDir);
    await assertFolderWritable(dir, io.cwd);
    return {
      format,
      stdout: false,
      outDir: dir,
      paths: (loaded) => outputPaths(loaded, dir, format, io.cwd),
    };
  }
  throw new SwitchyardError(
    'E_USAGE',
    'say where to write: -o <file.svg|.png|.mmd>, -o - for standard output, or --out-dir <dir>',
  );
}
