/**
 * The measured programs compiled with tsc into a temporary folder and run with plain `node`: under tsx every
 * named function and closure is wrapped in esbuild's `__name` when it is made, which costs the engine (whose
 * hot paths make closures per call) far more than the hand-written baselines (async W2 takes 1.5× the CPU,
 * W1 1.45×), so no figure of bench/engine-targets.ts is taken under tsx. The folder mirrors the repository
 * (`src/`, `bench/`), with `schemas/` and `node_modules/` linked and the tree's `package.json`.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TSC = fileURLToPath(new URL('bin/tsc', import.meta.resolve('typescript/package.json')));

/** The programs bench/engine-targets.ts runs, compiled with everything they import. */
export const MEASURED_PROGRAMS: readonly string[] = [
  'src/index.ts',
  'bench/targets/in-memory.ts',
  'bench/targets/inflight.ts',
  'bench/targets/durable-w1.ts',
  'bench/targets/distributed.ts',
  'bench/w2.bench.ts',
  'bench/durable-w2.bench.ts',
  'bench/distributed-worker.ts',
];

/** A compiled copy of a tree. */
export interface CompiledTree {
  /** The folder that mirrors the tree: `<root>/src/index.js`, `<root>/bench/…`. */
  readonly root: string;
  remove(): void;
}

/**
 * Compiles `entries` (paths relative to `tree`) and everything they import into a fresh folder, linking the
 * tree's `schemas/` and `node_modules/` (default: the tree's own) beside them. Type errors do not stop it
 * (`--noCheck`: the tree is type-checked elsewhere); a syntax error does.
 * @example
 * const built = compileTree(repo, ['src/index.ts', 'bench/targets/inflight.ts']);
 * // node <built.root>/bench/targets/inflight.js engine 100000 3
 */
export function compileTree(
  tree: string,
  entries: readonly string[],
  modules = join(tree, 'node_modules'),
): CompiledTree {
  const root = mkdtempSync(join(tmpdir(), 'switchyard-compiled-'));
  const remove = () => rmSync(root, { recursive: true, force: true });
  const result = spawnSync(
    process.execPath,
    [
      TSC,
      ...entries.map((entry) => join(tree, entry)),
      '--outDir',
      root,
      '--rootDir',
      tree,
      '--module',
      'nodenext',
      '--target',
      'es2022',
      '--rewriteRelativeImportExtensions',
      '--allowImportingTsExtensions',
      '--skipLibCheck',
      '--noCheck',
      '--ignoreConfig',
      '--types',
      'node',
    ],
    { cwd: tree, encoding: 'utf8' },
  );
  if (result.status !== 0) {
    remove();
    throw new Error(`compiling ${entries.join(', ')} failed:\n${result.stdout}${result.stderr}`);
  }
  // The tree's own package.json: it makes `.js` ES modules, and the engine reads its version there.
  copyFileSync(join(tree, 'package.json'), join(root, 'package.json'));
  symlinkSync(join(tree, 'schemas'), join(root, 'schemas'));
  symlinkSync(modules, join(root, 'node_modules'));
  return { root, remove };
}

/** The profiling programs of docs/ENGINE-PROFILE.md, compiled by `node --import tsx bench/targets/compiled.ts`. */
const PROFILING_PROGRAMS: readonly string[] = [
  ...MEASURED_PROGRAMS,
  'bench/targets/profile-run.ts',
  'bench/targets/durable-split.ts',
  'bench/targets/durable-w2-split.ts',
];

// Run directly, it compiles the measured and profiling programs (or the entries given) and prints the folder,
// which stays until removed: `R=$(node --import tsx bench/targets/compiled.ts)`, then `node $R/bench/…`.
if (import.meta.url === `file://${process.argv[1]}`) {
  const repo = fileURLToPath(new URL('../..', import.meta.url));
  const entries = process.argv.slice(2);
  process.stdout.write(`${compileTree(repo, entries.length > 0 ? entries : PROFILING_PROGRAMS).root}\n`);
}
