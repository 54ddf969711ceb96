/**
 * Reading the nodes a node module exports: `nodes` (an array of definitions) or a default array, or, for a
 * module compiled to CommonJS, the same under `default`. Anything else is one `E_NODE_MODULE` line saying
 * what the module exports instead and what to export.
 */
import { SwitchyardError } from '../errors.ts';
import type { NodeDefinition } from '../runtime/node.ts';

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
export function nodesOf(module: Record<string, unknown>, path: string): NodeDefinition<string, never>[] {
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
