/**
 * Turns the failure of importing a node module into one line a user can act on: a syntax error as
 * `file:line:col: message`, an import that cannot be resolved (which one, in which file, and why), or an
 * error thrown by the module's own top-level code.
 */
import { readFile } from 'node:fs/promises';
import { extname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { displayPath } from './output.ts';
import { unresolvedImport } from './unresolved-import.ts';

/** Where and why an import failed, as far as the error says. */
export interface ImportFailure {
  /** The file the problem is in: the module itself or a file it imports. */
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
  /** What is wrong, on one line. */
  readonly message: string;
  /** How to fix it. */
  readonly hint: string;
}

function firstLine(text: string): string {
  return (text.split('\n').find((line) => line.trim() !== '') ?? text).trim();
}

function withoutExtension(path: string): string {
  return path.slice(0, path.length - extname(path).length);
}

// esbuild (through tsx) reports `Transform failed with 1 error:\n<file>:<line>:<col>: ERROR: <message>`.
const ESBUILD = /^(.+?):(\d+):(\d+): ERROR: (.+)$/mu;
// V8 puts the place of a syntax error as the first line of the stack: `file:///x.js:3` (or a plain path).
const V8_PLACE = /^((?:file:\/\/)?\/[^\n]*?):(\d+)\n([^\n]*)\n( *)\^/u;

function fileOf(reported: string, module: string): string {
  const path = reported.startsWith('file://') ? fileURLToPath(reported.replace(/\?.*$/u, '')) : reported;
  const absolute = isAbsolute(path) ? path : resolve(path);
  // tsx names a `.mts` or `.cts` module by its `.ts` name in its messages; the module is what was loaded.
  return withoutExtension(absolute) === withoutExtension(module) ? module : absolute;
}

/** How to fix a syntax error in `file`, and how to list such errors. */
export function syntaxHint(file: string): string {
  return /\.[cm]?tsx?$/u.test(file)
    ? 'fix the syntax there; `npx tsc --noEmit` lists every such error'
    : 'fix the syntax there; `node --check <file>` shows it';
}

/**
 * Reads an import failure of `module` (an absolute path) into where it happened and what to do; paths in
 * the message are shown relative to `cwd`.
 */
export function describeImportFailure(error: unknown, module: string, cwd = process.cwd()): ImportFailure {
  const message = error instanceof Error ? error.message : String(error);
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  const unresolved = unresolvedImport(error, (path) => displayPath(path, cwd));
  if (unresolved !== undefined) {
    // V8 places a name that a module does not export at the import that names it.
    const place = error instanceof SyntaxError ? V8_PLACE.exec(stack) : null;
    return {
      file: fileOf(place?.[1] ?? unresolved.importer ?? module, module),
      ...(place ? { line: Number(place[2]), column: (place[4] as string).length + 1 } : {}),
      message: unresolved.message,
      hint: unresolved.hint,
    };
  }
  const esbuild = ESBUILD.exec(message);
  if (esbuild) {
    return {
      file: fileOf(esbuild[1] as string, module),
      line: Number(esbuild[2]),
      column: Number(esbuild[3]) + 1,
      message: `syntax error: ${firstLine(esbuild[4] as string)}`,
      hint: syntaxHint(fileOf(esbuild[1] as string, module)),
    };
  }
  if (isSyntaxFailure(error)) {
    const place = V8_PLACE.exec(stack);
    return {
      file: place ? fileOf(place[1] as string, module) : module,
      ...(place ? { line: Number(place[2]), column: (place[4] as string).length + 1 } : {}),
      message: `syntax error: ${firstLine(message)}`,
      hint: syntaxHint(module),
    };
  }
  const name = error instanceof Error ? error.name : typeof error;
  return {
    file: module,
    message: `the module threw when imported: ${name}: ${firstLine(message)}`,
    hint: "fix the module's top-level code so that importing it only defines nodes",
  };
}

/** Whether an import failed on the syntax of some file: V8's SyntaxError, or a bundler's parse failure. */
export function isSyntaxFailure(error: unknown): boolean {
  if (error instanceof SyntaxError) return true;
  const message = error instanceof Error ? error.message : '';
  return /^(Parse failure|Transform failed)/u.test(message);
}

const LOADERS: Readonly<Record<string, 'ts' | 'tsx' | 'js' | 'jsx'>> = {
  '.ts': 'ts',
  '.mts': 'ts',
  '.cts': 'ts',
  '.tsx': 'tsx',
  '.js': 'js',
  '.mjs': 'js',
  '.cjs': 'js',
  '.jsx': 'jsx',
};

interface EsbuildFailure {
  readonly errors?: readonly {
    readonly text: string;
    readonly location?: { readonly line: number; readonly column: number } | null;
  }[];
}

/**
 * Finds the first syntax error of `file` with esbuild, the parser tsx compiles node modules with, for a
 * failure whose own message gives no place (V8 reports none for ES modules). Undefined when the file parses,
 * or when esbuild cannot be loaded.
 */
export async function locateSyntaxError(
  file: string,
): Promise<{ line: number; column: number; message: string } | undefined> {
  const loader = LOADERS[extname(file)] ?? 'js';
  let esbuild: { transform: (source: string, options: object) => Promise<unknown> };
  try {
    esbuild = (await import('esbuild')) as typeof esbuild;
  } catch {
    return undefined;
  }
  const source = await readFile(file, 'utf8');
  try {
    await esbuild.transform(source, { loader, format: 'esm', sourcefile: file, logLevel: 'silent' });
    return undefined;
  } catch (error) {
    const first = (error as EsbuildFailure).errors?.[0];
    if (!first?.location) return undefined;
    return { line: first.location.line, column: first.location.column + 1, message: first.text };
  }
}
