/**
 * Reads the failure of an `import` (or `require`) that a node module, or a file it imports, makes: which
 * import failed, in which file, why, and how to fix it. An import that cannot be resolved or linked is
 * not the module's own code throwing, and is never reported as such.
 */
import { isAbsolute, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NOT_FOUND, packageOf } from '../optional-import.ts';

/** Where an import failed and why, on one line. */
export interface UnresolvedImport {
  /** The file that makes the import, or undefined when the error does not say. */
  readonly importer?: string;
  /** `import 'x' failed: why`, paths shown by `show`. */
  readonly message: string;
  /** How to fix it. */
  readonly hint: string;
}

/** How paths are written in messages (relative to the working folder). */
export type ShowPath = (path: string) => string;

const firstLine = (text: string): string => (text.split('\n')[0] ?? text).trim();

/** A file path from a file URL or a path, without the query a loader adds (`?namespace=…`). */
function pathOf(reported: string): string {
  const bare = reported.replace(/\?.*$/u, '');
  return bare.startsWith('file://') ? fileURLToPath(bare) : bare;
}

/** The file that makes the import: `… imported from <file>` (ES modules) or the first of `Require stack:`. */
function importerOf(message: string): string | undefined {
  const imported = / imported from (\S.*?)\s*$/mu.exec(firstLine(message));
  if (imported) return pathOf(imported[1] as string);
  const required = /^Require stack:\n- (.+)$/mu.exec(message);
  return required ? pathOf(required[1] as string) : undefined;
}

/** The package a path inside `node_modules` belongs to (`…/node_modules/@s/p/package.json` → `@s/p`). */
function packageAt(path: string): string | undefined {
  const parts = path.split(sep);
  const at = parts.lastIndexOf('node_modules');
  if (at === -1) return undefined;
  const name = parts[at + 1] ?? '';
  return name.startsWith('@') ? `${name}/${parts[at + 2] ?? ''}` : name;
}

interface Reading {
  readonly specifier: string;
  readonly why: string;
  readonly hint: string;
}

/** A matcher: the error's code (or name) and first line in, what it means out; undefined when not its kind. */
type Reader = (message: string, show: ShowPath) => Reading | undefined;

const notFound: Reader = (message, show) => {
  const found = NOT_FOUND.exec(message);
  if (!found) return undefined;
  const target = found[1] as string;
  const pkg = packageOf(target);
  if (pkg !== undefined) {
    return {
      specifier: target,
      why: `the package ${pkg} is not installed`,
      hint: `install it in the node module's project: \`npm install ${pkg}\``,
    };
  }
  const path = isAbsolute(pathOf(target)) ? show(pathOf(target)) : target;
  const owner = packageAt(pathOf(target));
  if (owner !== undefined) {
    return {
      specifier: path,
      why: `the package ${owner} lacks this file`,
      hint: `install it again: \`npm install ${owner}\``,
    };
  }
  return { specifier: path, why: 'no such file', hint: 'check the path in the import' };
};

const notExported: Reader = (message, show) => {
  const subpath = /Package subpath '([^']+)' is not defined by "exports" in (\S+)/u.exec(message);
  const main = /No "exports" main defined in (\S+)/u.exec(message);
  const manifest = (subpath?.[2] ?? main?.[1]) as string | undefined;
  if (manifest === undefined) return undefined;
  const pkg = packageAt(manifest) ?? show(manifest);
  const required = !/ imported from /u.test(firstLine(message));
  if (subpath) {
    const path = (subpath[1] as string).replace(/^\.\/?/u, '');
    return {
      specifier: `${pkg}/${path}`,
      why: `the package ${pkg} does not export './${path}'`,
      hint: `import a path that the "exports" of ${pkg}'s package.json lists`,
    };
  }
  return {
    specifier: pkg,
    why: `the package ${pkg} exports nothing for ${required ? 'require()' : 'import'}`,
    hint: required
      ? `import it from a node module written as an ES module (import/export, without require or module.exports)`
      : `see how ${pkg} is meant to be loaded, and upgrade it if it is old`,
  };
};

const missingExport: Reader = (message) => {
  const named = /The requested module '([^']+)' does not provide an export named '([^']+)'/u.exec(message);
  if (named) {
    return {
      specifier: named[1] as string,
      why: `it has no export named '${named[2]}'`,
      hint: 'import a name it exports (check the spelling, and whether it is a default export)',
    };
  }
  const commonjs =
    /Named export '([^']+)' not found\. The requested module '([^']+)' is a CommonJS module/u.exec(message);
  if (!commonjs) return undefined;
  return {
    specifier: commonjs[2] as string,
    why: `it is a CommonJS module whose export '${commonjs[1]}' an ES module cannot name`,
    hint: `import its default export and take the name from it: \`import pkg from '${commonjs[2]}'; const { ${commonjs[1]} } = pkg;\``,
  };
};

/** Other failures to resolve or load an import, by Node's error code. */
interface CodeReading {
  /** Finds the import's name in Node's first line. */
  readonly name?: RegExp;
  readonly why: string;
  readonly hint: string;
  /** Whether Node's own line says more than `why` and is kept after it. */
  readonly quote?: boolean;
}

const JSON_ATTRIBUTE: CodeReading = {
  name: /Module "([^"]+)"/u,
  why: 'it needs an import attribute',
  hint: "import JSON with `with { type: 'json' }`",
};
const BROKEN_PACKAGE = 'install the package again, or another version of it';

const BY_CODE: Readonly<Record<string, CodeReading>> = {
  ERR_PACKAGE_IMPORT_NOT_DEFINED: {
    name: /specifier "([^"]+)"/u,
    why: 'no "imports" entry of the nearest package.json defines it',
    hint: 'add it to "imports" in package.json, or import the file by its path',
  },
  ERR_UNKNOWN_BUILTIN_MODULE: {
    name: /module: (\S+)/u,
    why: 'Node has no such built-in module',
    hint: 'check the name after node:',
  },
  ERR_UNSUPPORTED_DIR_IMPORT: {
    name: /import '([^']+)'/u,
    why: 'it is a folder',
    hint: 'import the file itself, e.g. ./folder/index.ts',
  },
  ERR_UNKNOWN_FILE_EXTENSION: {
    name: /for (\S+)/u,
    why: 'Node cannot load a file with that extension',
    hint: 'import a .ts, .js or .json file',
  },
  ERR_IMPORT_ATTRIBUTE_MISSING: JSON_ATTRIBUTE,
  ERR_IMPORT_ASSERTION_TYPE_MISSING: JSON_ATTRIBUTE,
  ERR_REQUIRE_ESM: {
    name: /of ES Module (\S+)/u,
    why: 'it is an ES module, which this Node cannot require()',
    hint: 'write the node module with import/export instead of require(), or use Node 20.19 or later',
  },
  ERR_REQUIRE_ASYNC_MODULE: {
    why: 'an ES module it loads uses top-level await, which require() cannot wait for',
    hint: 'write the node module with import/export instead of require()',
  },
  ERR_INVALID_MODULE_SPECIFIER: {
    name: /specifier "([^"]+)"/u,
    why: 'the name is not a valid import',
    hint: 'check the import',
  },
  ERR_INVALID_PACKAGE_TARGET: {
    why: 'its package.json "exports" are invalid',
    hint: BROKEN_PACKAGE,
    quote: true,
  },
  ERR_INVALID_PACKAGE_CONFIG: { why: 'its package.json is invalid', hint: BROKEN_PACKAGE, quote: true },
  ERR_UNSUPPORTED_ESM_URL_SCHEME: {
    why: 'Node loads modules only from files and node: built-ins',
    hint: 'import a file or an installed package',
    quote: true,
  },
};

const byCode =
  (entry: CodeReading): Reader =>
  (message, show) => {
    const line = firstLine(message);
    const name = entry.name?.exec(line)?.[1];
    const specifier = name === undefined ? '' : isAbsolute(pathOf(name)) ? show(pathOf(name)) : name;
    return { specifier, why: entry.quote ? `${entry.why}: ${line}` : entry.why, hint: entry.hint };
  };

function readerOf(error: unknown): Reader | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') return notFound;
  if (code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') return notExported;
  const entry = typeof code === 'string' && Object.hasOwn(BY_CODE, code) ? BY_CODE[code] : undefined;
  if (entry !== undefined) return byCode(entry);
  if (error instanceof SyntaxError) return missingExport;
  return undefined;
}

/**
 * What went wrong when `error` is the failure of an import to resolve or link (a missing package or file, a
 * path a package does not export, a name a module does not export, …); undefined for any other failure.
 * @example
 * unresolvedImport(error, (path) => displayPath(path, cwd))
 * // { importer: '/p/nodes.ts', message: "import 'left-pad' failed: the package left-pad is not installed", … }
 */
export function unresolvedImport(error: unknown, show: ShowPath): UnresolvedImport | undefined {
  const reader = readerOf(error);
  if (reader === undefined || !(error instanceof Error)) return undefined;
  const reading = reader(error.message, show);
  if (reading === undefined) return undefined;
  const importer = importerOf(error.message);
  const what = reading.specifier === '' ? 'an import' : `import '${reading.specifier}'`;
  return {
    ...(importer === undefined ? {} : { importer }),
    message: `${what} failed: ${reading.why}`,
    hint: reading.hint,
  };
}
