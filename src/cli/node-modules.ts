import { stat } from 'node:fs/promises';
import { register } from 'node:module';
import { resolve } from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { isSwitchyardError, SwitchyardError } from '../errors.ts';
import { compilerFailure, importOptional, TYPESCRIPT_LOADER } from '../optional-import.ts';
import { createRegistry, type NodeDefinition, type NodeRegistry } from '../runtime/node.ts';
import { describeImportFailure, locateSyntaxError, syntaxHint } from './import-error.ts';
import { displayPath } from './output.ts';

/** Files that only a compiler can load: TypeScript in all its module flavours, and JSX. */
const NEEDS_COMPILER = /\.(?:[cm]?tsx?|jsx)$/u;

type Importer = (file: string) => Promise<unknown>;

/**
 * How to import `file`: JavaScript with Node's own `import()` (it detects ES module syntax in a `.js` file
 * outside a `"type": "module"` package), TypeScript through tsx, which is loaded only then, so a program
 * whose node modules are JavaScript never loads a compiler. A missing tsx is `E_MISSING_PACKAGE`.
 */
async function importerFor(file: string): Promise<Importer> {
  if (!NEEDS_COMPILER.test(file)) return (path) => import(pathToFileURL(path).href);
  return compilingImporter();
}

/** A CommonJS TypeScript module, which tsx requires rather than imports. */
const COMMONJS = /\.cts$/u;

/** The tsx namespace node modules are compiled under. */
const NAMESPACE = 'switchyard-nodes';

let compiling: Promise<Importer> | undefined;

/**
 * The hooks that make a TypeScript node module written as an ES module load as one outside a
 * "type": "module" package (see module-format-hook.mjs). Registered before tsx, so that tsx's own resolve
 * hook, which runs first, gets the format from them. A plain JavaScript file beside this one, in the
 * sources and in `dist/` alike.
 */
const FORMAT_HOOK = new URL('./module-format-hook.mjs', import.meta.url);

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
      register(FORMAT_HOOK, { data: { parent: import.meta.url, namespace: NAMESPACE } });
      // Both of tsx's loaders under one namespace, as `tsImport` registers them: a module written as an ES
      // module is compiled by the ES module one; one that uses CommonJS (`require`, `module.exports`,
      // `__dirname`) outside a "type": "module" package is compiled by the CommonJS one, as a `.cts` is.
      const required = cjs.register({ namespace: NAMESPACE });
      const scoped = esm.register({ namespace: NAMESPACE });
      return (path: string) => {
        const url = pathToFileURL(path).href;
        if (!COMMONJS.test(path)) return scoped.import(url, import.meta.url);
        return Promise.resolve().then(() => required.require(url, import.meta.url));
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

/** What a module exports, for a message saying why none of it is a node. */
function exportsOf(module: Record<string, unknown>): string {
  const names = Object.keys(module).filter((name) => name !== '__esModule');
  return names.length === 0 ? 'nothing' : names.map((name) => `\`${name}\``).join(', ');
}

/** Why one exported entry is not a node definition, or undefined when it is one. */
function notANode(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object')
    return `is ${value === null ? 'null' : typeof value}, not a node`;
  const v = value as Record<string, unknown>;
  if (typeof v.id !== 'string') return 'has no string `id`';
  if (!Array.isArray(v.outputs) || !v.outputs.every((o) => typeof o === 'string'))
    return `('${v.id}') has no \`outputs\` array of output names`;
  if (typeof v.run !== 'function' && typeof v.batch !== 'function')
    return `('${v.id}') has neither a \`run\` nor a \`batch\` function`;
  return undefined;
}

/** The node definitions a module exports, or a one-line `E_NODE_MODULE` saying what it exports instead. */
function nodesOf(module: Record<string, unknown>, path: string): NodeDefinition<string, never>[] {
  const fix = 'export `nodes` (or a default export): an array of defineNode(...) results';
  // A module compiled to CommonJS arrives with its exports under `default` as well.
  const inner = module.default;
  const namespace =
    module.nodes === undefined && inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? (inner as Record<string, unknown>)
      : module;
  const name = namespace.nodes !== undefined ? 'nodes' : 'default';
  const exported = namespace.nodes ?? (namespace === module ? module.default : undefined);
  if (exported === undefined) {
    throw new SwitchyardError(
      'E_NODE_MODULE',
      `node module ${path} exports no nodes (it exports ${exportsOf(namespace)}) — ${fix}`,
    );
  }
  if (!Array.isArray(exported) || exported.length === 0) {
    const what = Array.isArray(exported) ? 'an empty array' : exported === null ? 'null' : typeof exported;
    throw new SwitchyardError(
      'E_NODE_MODULE',
      `node module ${path} exports no nodes: its \`${name}\` export is ${what} — ${fix}`,
    );
  }
  for (const [index, entry] of exported.entries()) {
    const why = notANode(entry);
    if (why !== undefined) {
      throw new SwitchyardError(
        'E_NODE_MODULE',
        `node module ${path}: \`${name}[${index}]\` ${why} — ${fix}`,
      );
    }
  }
  return exported as NodeDefinition<string, never>[];
}
