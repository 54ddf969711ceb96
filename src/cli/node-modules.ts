import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { isSwitchyardError, SwitchyardError } from '../errors.ts';
import { compilerFailure, importOptional, TYPESCRIPT_LOADER } from '../optional-import.ts';
import { createRegistry, type NodeDefinition, type NodeRegistry } from '../runtime/node.ts';
import { describeImportFailure, locateSyntaxError, syntaxHint } from './import-error.ts';
import { formatHooks, NODE_MODULES_PARENT, needsFormatHooks, registerFormatHooks } from './module-format.ts';
import { nodesOf } from './node-exports.ts';
import { displayPath } from './output.ts';

/** Files that only a compiler can load: TypeScript in all its module flavours, and JSX. */
const NEEDS_COMPILER = /\.(?:[cm]?tsx?|jsx)$/u;

type Importer = (file: string) => Promise<unknown>;

/**
 * How to import `file`: JavaScript with Node's own `import()`, TypeScript through tsx, which is loaded only
 * then, so a program whose node modules are JavaScript never loads a compiler (a missing tsx is
 * `E_MISSING_PACKAGE`). A `.js` file written as an ES module outside a `"type": "module"` package gets the
 * format hooks first, and is imported from the URL they know node modules by.
 */
async function importerFor(file: string): Promise<Importer> {
  if (NEEDS_COMPILER.test(file)) return compilingImporter();
  if (!(await needsFormatHooks(file))) return (path) => import(pathToFileURL(path).href);
  registerFormatHooks(NAMESPACE);
  const { importFile } = await formatHooks();
  return (path) => importFile(pathToFileURL(path).href);
}

/** A CommonJS TypeScript module, which tsx requires rather than imports. */
const COMMONJS = /\.cts$/u;

/** The tsx namespace node modules are compiled under. */
const NAMESPACE = 'switchyard-nodes';

let compiling: Promise<Importer> | undefined;

/**
 * The importer of modules that need a compiler, made once per process: tsx is registered under one namespace
 * and every such module goes through it. Each registration adds a layer to tsx's hooks, so registering per
 * module (as `tsImport` does) would let a process that loads many (a harness calling `main` again and
 * again) overflow its stack on a later `require`.
 */
function compilingImporter(): Promise<Importer> {
  compiling ??= importOptional(TYPESCRIPT_LOADER, () =>
    Promise.all([import('tsx/esm/api'), import('tsx/cjs/api')]),
  ).then(
    ([esm, cjs]) => {
      registerFormatHooks(NAMESPACE);
      // Both of tsx's loaders under one namespace, as `tsImport` registers them: a module written as an ES
      // module is compiled by the ES module one; one that uses CommonJS (`require`, `module.exports`,
      // `__dirname`) outside a "type": "module" package is compiled by the CommonJS one, as a `.cts` is.
      const required = cjs.register({ namespace: NAMESPACE });
      const scoped = esm.register({ namespace: NAMESPACE });
      return (path: string) => {
        const url = pathToFileURL(path).href;
        if (!COMMONJS.test(path)) return scoped.import(url, NODE_MODULES_PARENT);
        return Promise.resolve().then(() => required.require(url, NODE_MODULES_PARENT));
      };
    },
    (error: unknown) => {
      // tsx may be installed later in a long-lived process: the next module tries again.
      compiling = undefined;
      throw error;
    },
  );
  return compiling;
}

/**
 * Runs an import whose failure is reported once, by the import itself. When an ES module imports a CommonJS
 * one that throws, tsx rejects a promise of its own with the same error, which nothing awaits: left alone
 * it would end the process as an unhandled rejection, with a stack, before the one-line answer. It comes
 * by the time the import has failed, and is dropped; any other rejection unhandled meanwhile is thrown, as
 * Node would throw it.
 */
async function reportedOnce<T>(load: () => Promise<T>): Promise<T> {
  const strays: unknown[] = [];
  const keep = (reason: unknown) => {
    strays.push(reason);
  };
  process.on('unhandledRejection', keep);
  let failure: { readonly error: unknown } | undefined;
  try {
    return await load();
  } catch (error) {
    failure = { error };
    // Node hands out unhandled rejections once the current turn's promise jobs are done: the copy is
    // out by the next turn of the event loop.
    await setImmediate();
    throw error;
  } finally {
    process.off('unhandledRejection', keep);
    // Node throws an unhandled rejection only when nothing listens for them; listeners of the program's own
    // have been told of each already.
    const thrown = process.listenerCount('unhandledRejection') === 0;
    for (const reason of strays) {
      if (thrown && reason !== failure?.error)
        process.nextTick(() => {
          throw reason;
        });
    }
  }
}

/**
 * Imports a module of node implementations: it exports `nodes` (an array of definitions) or a default array.
 * A missing file, a failing import (a syntax error with its `file:line:col`, an error thrown at import) or a
 * module without nodes is a user mistake with one clear line.
 */
export async function loadNodeModule(path: string, cwd = process.cwd()): Promise<NodeRegistry> {
  const file = resolve(cwd, path);
  const found = await stat(file).catch(() => undefined);
  if (found === undefined) {
    throw new SwitchyardError(
      'E_NODE_MODULE',
      `no such node module: ${path} — check the path given to --nodes`,
    );
  }
  // Reading a FIFO or a device would wait for ever; a folder is not a module.
  if (!found.isFile()) {
    throw new SwitchyardError(
      'E_NODE_MODULE',
      `node module ${path} is not a regular file — give --nodes a .ts or .js file`,
    );
  }
  const importModule = await importerFor(file);
  let module: Record<string, unknown>;
  try {
    module = (await reportedOnce(() => importModule(file))) as Record<string, unknown>;
  } catch (error) {
    const compiler = compilerFailure(error);
    if (compiler !== undefined) throw compiler;
    let failure = describeImportFailure(error, file, cwd);
    // A failure that names no place may still come from a syntax error the loader did not report as one.
    if (failure.line === undefined) {
      const found = await locateSyntaxError(file).catch(() => undefined);
      if (found !== undefined) {
        failure = { file, ...found, message: `syntax error: ${found.message}`, hint: syntaxHint(file) };
      }
    }
    const place =
      failure.line === undefined
        ? ''
        : `:${failure.line}${failure.column === undefined ? '' : `:${failure.column}`}`;
    throw new SwitchyardError(
      'E_NODE_MODULE',
      `${displayPath(failure.file, cwd)}${place}: ${failure.message} — ${failure.hint} (node module ${path})`,
      { cause: error },
    );
  }
  let nodes: NodeDefinition<string, never>[];
  try {
    nodes = nodesOf(module, path);
  } catch (error) {
    if (isSwitchyardError(error)) throw error;
    // A getter or proxy in the module's exports threw while its nodes were looked at.
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new SwitchyardError(
      'E_NODE_MODULE',
      `node module ${path}: reading its exports threw: ${reason} — export plain defineNode(...) results`,
      { cause: error },
    );
  }
  return createRegistry(nodes);
}
