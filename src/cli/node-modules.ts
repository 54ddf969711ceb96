import { access } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { SwitchyardError } from '../errors.ts';
import { createRegistry, type NodeDefinition, type NodeRegistry } from '../runtime/node.ts';

function isNodeDefinition(value: unknown): value is NodeDefinition {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.id === 'string' &&
    Array.isArray(v.outputs) &&
    (typeof v.run === 'function' || typeof v.batch === 'function')
  );
}

const TYPESCRIPT = new Set(['.ts', '.mts', '.cts']);

// tsx compiles a TypeScript module as ESM whatever the nearest package.json says, where a plain import
// of a .ts file outside a "type": "module" package fails with "Cannot require() ES Module … in a cycle".
function importModule(file: string): Promise<unknown> {
  const url = pathToFileURL(file).href;
  return TYPESCRIPT.has(extname(file)) ? tsImport(url, import.meta.url) : import(url);
}

/**
 * Imports a module of node implementations: it exports `nodes` (an array of definitions) or a default array.
 * A missing file, a failing import or a module without nodes is a user mistake with one clear line.
 */
export async function loadNodeModule(path: string, cwd = process.cwd()): Promise<NodeRegistry> {
  const file = resolve(cwd, path);
  try {
    await access(file);
  } catch {
    throw new SwitchyardError(
      'E_NODE_MODULE',
      `no such node module: ${path} — check the path given to --nodes`,
    );
  }
  let module: Record<string, unknown>;
  try {
    module = (await importModule(file)) as Record<string, unknown>;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new SwitchyardError('E_NODE_MODULE', `cannot import node module ${path}: ${reason}`, {
      cause: error,
    });
  }
  const exported = module.nodes ?? module.default;
  if (!Array.isArray(exported) || exported.length === 0 || !exported.every(isNodeDefinition)) {
    throw new SwitchyardError(
      'E_NODE_MODULE',
      `node module ${path} exports no nodes — export \`nodes\` (or a default export): an array of defineNode(...) results`,
    );
  }
  return createRegistry(exported as NodeDefinition<string, never>[]);
}
