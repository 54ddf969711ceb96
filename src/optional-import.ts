/**
 * Importing an optional or native part: an optional peer dependency, installed only by those who need what
 * it does (rendering, the Archivist's model clients, TypeScript node modules), or a package whose compiled
 * addon an install without scripts leaves out (better-sqlite3). A missing or broken one is one line naming
 * the command that fixes it and the way around it.
 */
import { isAbsolute } from 'node:path';
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
  /** How to do without it, e.g. `or pass --no-store to record nothing`; appended after the install. */
  readonly without?: string;
}

/** A package with a compiled addon, which its install script builds or downloads. */
export interface NativePackage extends OptionalPackage {
  readonly addon: true;
}

/** Where pnpm installs packages: a path of its layout in the error says pnpm installed the package. */
const PNPM_LAYOUT = /[/\\]node_modules[/\\]\.pnpm[/\\]/u;

/**
 * The command that builds the addon of `name`, as the line shows it: npm's rebuild, or, for a package pnpm
 * installed, pnpm's rebuild, or its approval of the install script, which pnpm runs for no dependency until
 * the project allows it.
 */
function rebuildOf(name: string, error: unknown, missing: boolean): string {
  const message = error instanceof Error ? error.message : '';
  if (!PNPM_LAYOUT.test(message)) return `\`npm rebuild ${name}\``;
  return missing ? `\`pnpm approve-builds\` and pick ${name}` : `\`pnpm rebuild ${name}\``;
}

// Node's ES module loader says `Cannot find package 'x' imported from …`; require says `Cannot find module 'x'`.
/** What a failed import says of the specifier it could not find; group 1 is the specifier. */
export const NOT_FOUND = /Cannot find (?:package|module) '([^']+)'/u;

/**
 * The package of a bare specifier (`@scope/name/sub` → `@scope/name`), or undefined for a relative or
 * absolute path, a `#` import or a URL (`node:fs`, `file:…`).
 */
export function packageOf(specifier: string): string | undefined {
  if (/^[./#]|^[a-z][\w+.-]*:/iu.test(specifier) || isAbsolute(specifier)) return undefined;
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

// How a compiled addon that is not there, or not for this Node, fails to load: `bindings` lists the paths it
// tried, Node's dlopen names the ABI (`NODE_MODULE_VERSION`) or the file format it cannot load.
const ADDON_MISSING = /^Could not locate the bindings file|^Cannot find module '[^']+\.node'/u;
const ADDON_BROKEN =
  /NODE_MODULE_VERSION|invalid ELF header|wrong ELF class|cannot open shared object file|undefined symbol|not a valid Win32 application/u;

/**
 * Why a compiled addon cannot be loaded, from the error loading it gave: `missing` when it was never built
 * (an install without scripts), the first line of the error when it does not load here (built for another
 * Node or machine), or undefined when the error is about something else.
 */
export function brokenAddonOf(error: unknown): 'missing' | { readonly reason: string } | undefined {
  const message = error instanceof Error ? error.message : '';
  if (ADDON_MISSING.test(message)) return 'missing';
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'ERR_DLOPEN_FAILED' && !ADDON_BROKEN.test(message)) return undefined;
  const line = (message.split('\n')[0] ?? message).trim();
  return { reason: /NODE_MODULE_VERSION/u.test(message) ? 'it was built for another version of Node' : line };
}

/** The one line of a part that is missing or broken: what needs it, what is wrong, the fix, the way around. */
function missingPart(pkg: OptionalPackage, what: string, fix: string, cause: unknown): SwitchyardError {
  const without = pkg.without === undefined ? '' : `, ${pkg.without}`;
  return new SwitchyardError('E_MISSING_PACKAGE', `${pkg.neededFor} needs ${what}: run ${fix}${without}`, {
    cause,
  });
}

/** `E_MISSING_PACKAGE` for a native package whose addon `error` says is missing or broken, else undefined. */
function addonFailure(pkg: OptionalPackage | NativePackage, error: unknown): SwitchyardError | undefined {
  if (!('addon' in pkg)) return undefined;
  const broken = brokenAddonOf(error);
  if (broken === undefined) return undefined;
  const why =
    broken === 'missing'
      ? 'which is missing (it was installed without running its install script)'
      : `which does not load here (${broken.reason})`;
  const fix = rebuildOf(pkg.name, error, broken === 'missing');
  return missingPart(pkg, `the compiled addon of ${pkg.name}, ${why}`, fix, error);
}

// esbuild, which tsx compiles with, runs a binary installed for each platform as an optional dependency.
const ESBUILD_MISSING = /The package "(@esbuild\/[^"]+)" could not be found, and is needed by esbuild/u;
const ESBUILD_ELSEWHERE = /You installed esbuild for another platform than the one you're currently using/u;

/**
 * `E_MISSING_PACKAGE` when `error`, from compiling a node module written in TypeScript, says that esbuild's
 * binary for this platform is not installed (an install with `--omit=optional`) or is one for another
 * platform (a `node_modules` copied from another machine); undefined for any other error.
 */
export function compilerFailure(error: unknown): SwitchyardError | undefined {
  const message = error instanceof Error ? error.message : '';
  const missing = ESBUILD_MISSING.exec(message);
  if (missing) {
    return missingPart(
      TYPESCRIPT_LOADER,
      `esbuild's binary for this platform, the package ${missing[1]}, which is not installed`,
      '`npm install --include=optional tsx`',
      error,
    );
  }
  if (!ESBUILD_ELSEWHERE.test(message)) return undefined;
  return missingPart(
    TYPESCRIPT_LOADER,
    "esbuild's binary for this platform, and the one installed is for another",
    '`npm ci` on this machine',
    error,
  );
}

/**
 * Runs `load` (a dynamic `import()` of the package, or of a module that imports it) and returns its module,
 * after `probe` (given the module) has checked that it works, for a package that loads its addon only when
 * first used. When the package or one that comes with it is not installed, or the addon of a
 * {@link NativePackage} is missing or broken, throws `E_MISSING_PACKAGE` whose message is the one line saying
 * what to run and how to do without it; any other failure is thrown as it is.
 * @example
 * const { renderMermaid } = await importOptional(
 *   { name: '@mermaid-js/mermaid-cli', neededFor: 'rendering to SVG or PNG' },
 *   () => import('@mermaid-js/mermaid-cli'),
 * );
 */
export async function importOptional<T>(
  pkg: OptionalPackage | NativePackage,
  load: () => Promise<T>,
  probe?: (module: T) => void,
): Promise<T> {
  try {
    const module = await load();
    probe?.(module);
    return module;
  } catch (error) {
    const broken = addonFailure(pkg, error);
    if (broken !== undefined) throw broken;
    const missing = missingPackageOf(error);
    if (missing === undefined) throw error;
    const own = [pkg.name, ...(pkg.with ?? [])];
    // A dependency of the package that is missing: an install that was cut short, or that left it out.
    const needer = own.includes(missing) ? undefined : own.find((name) => importedFrom(error, name));
    if (!own.includes(missing) && needer === undefined) throw error;
    const install = pkg.install ?? `npm install ${pkg.name}`;
    const what = needer === undefined ? missing : `${missing} (a dependency of ${needer})`;
    throw missingPart(pkg, `the package ${what}, which is not installed`, `\`${install}\``, error);
  }
}

/** Whether the import that failed was made by a file of the installed package `name`. */
function importedFrom(error: unknown, name: string): boolean {
  const message = error instanceof Error ? error.message : '';
  const importer = / imported from (.+)$/mu.exec(message)?.[1] ?? /^- (.+)$/mu.exec(message)?.[1] ?? '';
  return importer.replaceAll('\\', '/').includes(`/node_modules/${name}/`);
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
  without: 'or write Mermaid text, which needs nothing (-o x.mmd)',
});

/** Loading node modules written in TypeScript (`--nodes x.ts`). */
export const TYPESCRIPT_LOADER: OptionalPackage = Object.freeze({
  name: 'tsx',
  neededFor: 'loading a node module written in TypeScript',
  with: Object.freeze(['esbuild']),
  install: 'npm install tsx',
  without: 'or write the node module in JavaScript (.js, .mjs)',
});

/** Run stores in SQLite files (`.switchyard/runs.db`, `openSqliteStore`). */
export const SQLITE_DRIVER: NativePackage = Object.freeze({
  name: 'better-sqlite3',
  neededFor: 'the run store (an SQLite file)',
  addon: true,
  without: 'or pass --no-store to record nothing',
});
