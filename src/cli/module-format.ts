/**
 * The module-format hooks (module-format-hook.mjs) from the main thread: whether a JavaScript node module
 * needs them, registering them once per process, and the URL node modules are imported from, which the
 * hooks know them by.
 */
import { readFile } from 'node:fs/promises';
import { register } from 'node:module';
import { dirname, extname, join } from 'node:path';

/** A plain JavaScript file beside this one, in the sources and in `dist/` alike. */
const FORMAT_HOOK = new URL('./module-format-hook.mjs', import.meta.url);

/**
 * The parent URL of every node module import: the hook module's own. In the bundled programs a module's own
 * URL is that of its bundle, which the hooks could not tell from any other; this one is the same everywhere.
 */
export const NODE_MODULES_PARENT = FORMAT_HOOK.href;

type FormatHooks = typeof import('./module-format-hook.mjs');

let loading: Promise<FormatHooks> | undefined;
let registered = false;

/** The hook module, loaded in this thread too, for `isModuleSource` and `importFile`. */
export function formatHooks(): Promise<FormatHooks> {
  loading ??= import(NODE_MODULES_PARENT) as Promise<FormatHooks>;
  return loading;
}

/**
 * Registers the hooks, once per process; before tsx, so that tsx's own resolve hook, which runs first, gets
 * the format from them. Starting Node's hooks thread takes some tens of milliseconds, spent only for the
 * node modules that need it.
 * @param namespace The tsx namespace TypeScript node modules are compiled under.
 */
export function registerFormatHooks(namespace: string): void {
  if (registered) return;
  register(FORMAT_HOOK, { data: { parent: NODE_MODULES_PARENT, namespace } });
  registered = true;
}

/**
 * Whether the `.js` node module `file` needs the hooks: it is written as an ES module outside a
 * "type": "module" package, where Node would refuse it ("type": "commonjs") or load it after a warning (no
 * "type").
 */
export async function needsFormatHooks(file: string): Promise<boolean> {
  if (extname(file) !== '.js' || (await packageTypeOf(dirname(file))) === 'module') return false;
  const source = await readFile(file, 'utf8').catch(() => '');
  return (await formatHooks()).isModuleSource(source);
}

/** The `"type"` of the package a folder belongs to: that of the nearest package.json, if it says one. */
async function packageTypeOf(folder: string): Promise<unknown> {
  for (let at = folder; ; at = dirname(at)) {
    const text = await readFile(join(at, 'package.json'), 'utf8').catch(() => undefined);
    if (text !== undefined) return typeIn(text);
    if (dirname(at) === at) return undefined;
  }
}

function typeIn(manifest: string): unknown {
  try {
    return (JSON.parse(manifest) as { type?: unknown } | null)?.type;
  } catch {
    return undefined;
  }
}
