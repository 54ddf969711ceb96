// Module-loader hooks (node:module `register`) that load a node module, and what it imports outside
// `node_modules`, as an ES module when it is written as one, wherever it lives. Node and tsx on their own
// follow the package: outside a "type": "module" package (no package.json, one without "type", or the
// "type": "commonjs" that `npm init` writes) Node refuses `import` in a `.js` file, or loads it after a
// warning, and tsx compiles a `.ts` file to CommonJS, where top-level await and `import.meta` do not exist and
// a package that exports only for `import` cannot be loaded.
//
// Plain JavaScript: Node loads hooks in a thread of their own, without a compiler. Registered before tsx,
// so tsx's resolve hook calls this one and keeps the format it gives (see src/cli/module-format.ts).
import { readFile } from 'node:fs/promises';
import { sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The extensions whose format Node and tsx take from the package; `.mjs`, `.cjs`, `.mts`, `.cts` say theirs. */
const FROM_PACKAGE = /\.(?:js|jsx|ts|tsx)$/u;

// Statements only an ES module has, at the start of a line: `import x from`, `import {`, `import 'x'`,
// `import type`, `export const` …, but not TypeScript's CommonJS forms `import x = require(…)` and
// `export = x`, nor a dynamic `import(…)`, which CommonJS has too.
const MODULE_SYNTAX =
  /^[ \t]*(?:import[ \t]*[{*'"]|import[ \t]+(?![\w$]+[ \t]*=(?!=))[\w$]|export[ \t]*[{*]|export[ \t]+(?!=|as[ \t])[\w$])/mu;

/** `import.meta` exists only in an ES module: a file that reads it is one, whatever else it holds. */
const IMPORT_META = /\bimport[ \t]*\.[ \t]*meta\b/u;

// What only CommonJS has. `require(` counts unless the file makes its own with `createRequire`.
const COMMONJS =
  /\b(?:module[ \t]*\.[ \t]*exports\b|exports[ \t]*\.[ \t]*[\w$]+[ \t]*=(?!=)|__dirname\b|__filename\b)/u;
const REQUIRE_CALL = /(?<![\w$.])require[ \t]*\(/u;

/** Comments, which may mention `require(` or `module.exports`; a `//` after `:` is a URL, not a comment. */
const COMMENTS = /\/\*[\s\S]*?\*\/|(?<![:\w$'"`])\/\/[^\n]*/gu;

/**
 * Whether `source` is an ES module: it has `import`/`export` statements or reads `import.meta`, and does not
 * use what only CommonJS has (`module.exports`, `__dirname`, `require(…)`), which it then keeps.
 * @param {string} source
 * @returns {boolean}
 */
export function isModuleSource(source) {
  if (IMPORT_META.test(source)) return true;
  if (!MODULE_SYNTAX.test(source)) return false;
  const code = source.replace(COMMENTS, '');
  if (COMMONJS.test(code)) return false;
  return !REQUIRE_CALL.test(code) || code.includes('createRequire');
}

/**
 * Imports a node module from this module, whose URL the resolve hook knows as the parent of node modules
 * (see NODE_MODULES_PARENT in module-format.ts).
 * @param {string} url
 */
export function importFile(url) {
  return import(url);
}

/** @type {{ parent?: string, namespace?: string }} */
let scope = {};

/** The files outside `node_modules` that node modules are or import: what they import is theirs too. */
const reached = new Set();

/**
 * Receives what the hooks act on: `parent`, the URL node modules are imported from, and `namespace`, the tsx
 * namespace TypeScript ones are compiled under (the modules they import carry it in their URL).
 * @param {{ parent: string, namespace: string }} data
 */
export function initialize(data) {
  scope = data;
}

/** @param {string | undefined} parentURL */
function importedByNodes(parentURL) {
  if (parentURL === undefined) return false;
  if (parentURL === scope.parent) return true;
  try {
    const url = new URL(parentURL);
    if (url.searchParams.get('tsx-namespace') === scope.namespace) return true;
    const file = fileOf(parentURL);
    return file !== undefined && reached.has(file);
  } catch {
    return false;
  }
}

/**
 * The file a resolved URL names. A tsx registered for the whole process (`node --import tsx`) resolves a
 * file it takes for CommonJS to a URL of its own, with a query folded into the path (`x.ts%3F…`).
 * @param {string} url
 */
function fileOf(url) {
  if (!url.startsWith('file:')) return undefined;
  const { pathname } = new URL(url);
  const at = pathname.indexOf('%3F');
  return fileURLToPath(`file://${at === -1 ? pathname : pathname.slice(0, at)}`);
}

/**
 * Gives a `.js`, `.jsx`, `.ts` or `.tsx` file outside `node_modules` that a node module is, or imports, the
 * format `module` (at its plain file URL) when its source is an ES module and it would not load as one;
 * anything else is resolved as it would be.
 * @param {string} specifier
 * @param {{ parentURL?: string }} context
 * @param {(specifier: string, context: object) => Promise<{ url: string, format?: string | null }>} next
 */
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (!importedByNodes(context.parentURL)) return resolved;
  const file = fileOf(resolved.url);
  if (file === undefined || file.includes(`${sep}node_modules${sep}`)) return resolved;
  reached.add(file);
  if (resolved.format === 'module' || !FROM_PACKAGE.test(file)) return resolved;
  const source = await readFile(file, 'utf8').catch(() => undefined);
  if (source === undefined || !isModuleSource(source)) return resolved;
  const url = resolved.url.includes('%3F') ? pathToFileURL(file).href : resolved.url;
  return { ...resolved, url, format: 'module' };
}
