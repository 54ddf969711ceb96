/**
 * Importing an optional peer dependency: the package is installed only by those who need what it does
 * (rendering, the Archivist's model clients, TypeScript node modules), and a missing one is one line
 * naming what to install.
 */
import { SwitchyardError } from './errors.ts';

/** An optional peer dependency, described for the line that says how to install it. */
export interface OptionalPackage {
  /** The package to install, e.g. `@mermaid-js/mermaid-cli`. */
  readonly name: string;
  /** What needs it, as the start of a sentence, e.g. `rendering to SVG or PNG`. */
  readonly neededFor: string;
  /** Packages that come with it: an import failing on one of them is answered with the same install. */
  readonly with?: readonly string[];
  /** The command that installs it; default `npm install <name>`. */
  readonly install?: string;
}

// Node's ES module loader says `Cannot find package 'x' imported from …`; require says `Cannot find module 'x'`.
const NOT_FOUND = /Cannot find (?:package|module) '([^']+)'/u;

/** The package name of a bare specifier (`@scope/name/sub` → `@scope/name`), or undefined for a path. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.includes(':')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The package a failed import could not find, or undefined when it failed for another reason. */
export function missingPackageOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return undefined;
  const found = NOT_FOUND.exec((error as Error).message ?? '');
  return found === null ? undefined : packageOf(found[1] as string);
}

/**
 * Runs `load` (a dynamic `import()` of the package, or of a module that imports it) and returns its module.
 * When the package or one that comes with it is not installed, throws `E_MISSING_PACKAGE` whose message is
 * the one line saying what to install; any other failure is thrown as it is.
 * @example
 * const { renderMermaid } = await importOptional(
 *   { name: '@mermaid-js/mermaid-cli', neededFor: 'rendering to SVG or PNG' },
 *   () => import('@mermaid-js/mermaid-cli'),
 * );
 */
export async function importOptional<T>(pkg: OptionalPackage, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const missing = missingPackageOf(error);
    if (missing === undefined || (missing !== pkg.name && !pkg.with?.includes(missing))) throw error;
    const install = pkg.install ?? `npm install ${pkg.name}`;
    throw new SwitchyardError(
      'E_MISSING_PACKAGE',
      `${pkg.neededFor} needs the package ${missing}, which is not installed: run \`${install}\``,
      { cause: error },
    );
  }
}

/**
 * Rendering diagrams to SVG or PNG: mermaid-cli, with the puppeteer it drives. Puppeteer's own browser is
 * never used (a system Chromium is), so its download is skipped.
 */
export const RENDERING_PACKAGES: OptionalPackage = Object.freeze({
  name: '@mermaid-js/mermaid-cli',
  neededFor: 'rendering to SVG or PNG',
  with: Object.freeze(['puppeteer']),
  install: 'PUPPETEER_SKIP_DOWNLOAD=true npm install @mermaid-js/mermaid-cli puppeteer',
});

/** Loading node modules written in TypeScript (`--nodes x.ts`). */
export const TYPESCRIPT_LOADER: OptionalPackage = Object.freeze({
  name: 'tsx',
  neededFor: 'loading a node module written in TypeScript',
  with: Object.freeze(['esbuild']),
  install: 'npm install tsx',
});
