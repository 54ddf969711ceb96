/**
 * `npm run build`: compiles the engine, the node implementations and the example programs to ES modules with
 * types and source maps, copies the files they read at run time beside them, runs the build steps
 * (`scripts/build-*.ts`), and only then puts the result in place as `dist/`.
 *
 * `dist/` mirrors the repository root (`dist/src`, `dist/nodes`, `dist/examples`, `dist/schemas`,
 * `dist/dags`), so a module finds its files by the same path relative to `import.meta.url` in the sources and
 * in the build. The build writes into a fresh folder beside `dist/` and renames it: a failed build leaves the
 * previous `dist/` as it was, a running program never sees a half-written one, and files of deleted sources
 * do not linger.
 */
import { spawnSync } from 'node:child_process';
import { cp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
const TSC = fileURLToPath(new URL('bin/tsc', import.meta.resolve('typescript/package.json')));

/**
 * Files the compiled code reads at run time, copied to the same place under the output folder: data, and the
 * modules written in plain JavaScript because Node loads them without a compiler (module hooks, the
 * CommonJS entry of the package).
 */
const ASSETS: readonly string[] = [
  'schemas',
  'dags',
  'examples/archivist/catalog.json',
  'src/cli/module-format-hook.mjs',
  'src/require.cjs',
];

/** A failed step: its one line is printed and the build exits 1. */
class BuildError extends Error {}

/** Runs `node <args>` in the repository root with the output shown; a non-zero exit fails the build. */
function node(args: readonly string[], what: string): void {
  const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) {
    throw new BuildError(`${what} failed (exit ${result.status ?? result.signal}); see its output above`);
  }
}

/** The build steps, in name order: `scripts/build-<name>.ts`. */
async function buildSteps(): Promise<string[]> {
  const names = await readdir(join(ROOT, 'scripts'));
  return names.filter((name) => /^build-.+\.ts$/u.test(name)).sort();
}

// tsc emits the package.json that src/version.ts imports; the build keeps only what the compiled code reads
// of it, so the copy cannot be mistaken for the package's own.
async function writeDistManifest(out: string): Promise<void> {
  const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const manifest = { version: pkg.version, type: 'module', private: true };
  await writeFile(join(out, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

async function build(out: string): Promise<void> {
  node([TSC, '-p', 'tsconfig.build.json', '--outDir', out], 'tsc -p tsconfig.build.json');
  for (const asset of ASSETS) {
    await cp(join(ROOT, asset), join(out, asset), { recursive: true });
  }
  await writeDistManifest(out);
  for (const step of await buildSteps()) {
    node(['--import', 'tsx', join('scripts', step), out], `build step scripts/${step}`);
  }
}

/** Moves `out` to `dist/`; the previous `dist/` is moved aside first and removed once `out` is in place. */
async function swapIn(out: string, aside: string): Promise<void> {
  const moved: string[] = [];
  try {
    // Another build (`npm pack` in a test, say) may put its own dist/ in place between the two renames; that
    // one is moved aside too, a few times at most.
    for (let attempt = 1; ; attempt += 1) {
      const to = `${aside}-${attempt}`;
      const found = await rename(DIST, to).then(
        () => true,
        (error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
          return false;
        },
      );
      if (found) moved.push(to);
      try {
        await rename(out, DIST);
        return;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (attempt === 3 || (code !== 'ENOTEMPTY' && code !== 'EEXIST')) throw error;
      }
    }
  } finally {
    for (const folder of moved) await rm(folder, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const out = join(ROOT, `.dist-build-${process.pid}`);
  const old = join(ROOT, `.dist-old-${process.pid}`);
  await rm(out, { recursive: true, force: true });
  try {
    await build(out);
    await swapIn(out, old);
    return 0;
  } catch (error) {
    await rm(out, { recursive: true, force: true });
    if (!(error instanceof BuildError)) throw error;
    // tsc ends its report without a newline.
    process.stderr.write(`\nbuild: ${error.message}\n`);
    return 1;
  }
}

process.exitCode = await main();
