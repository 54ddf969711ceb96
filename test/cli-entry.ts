/**
 * How tests start the programs as whole processes: from the TypeScript sources (through tsx), never from
 * `dist/`, so a test sees the code as it is now and does not depend on a fresh `npm run build`. The packed
 * package is tested on its own, by test/package/.
 */
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The arguments after `node` that run `switchyard` from the sources.
 * @example
 * spawn(process.execPath, [...SWITCHYARD, 'validate', 'dags']);
 */
export const SWITCHYARD: readonly string[] = Object.freeze([`${ROOT}bin/dev/switchyard.js`]);

/** The arguments after `node` that run `archivist` from the sources. */
export const ARCHIVIST: readonly string[] = Object.freeze([`${ROOT}bin/dev/archivist.js`]);

/**
 * Node options that run a TypeScript script from the sources, with `import … from 'switchyard'` resolved to
 * `src/index.ts` (the `switchyard-source` condition of the package's exports) instead of `dist/`.
 * @example
 * execFile(process.execPath, [...NODE_FROM_SOURCES, 'examples/quickstart.ts']);
 */
export const NODE_FROM_SOURCES: readonly string[] = Object.freeze([
  '--conditions=switchyard-source',
  '--import',
  'tsx',
]);

/** A command line for a shell (`node 'a' 'b'`), for tests that type the command into a terminal. */
export function shellCommand(args: readonly string[]): string {
  return ['node', ...args.map((arg) => `'${arg.replaceAll("'", `'\\''`)}'`)].join(' ');
}
