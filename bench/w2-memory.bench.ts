/**
 * W2 memory with the compiled package: W2 (bench/w2.bench.ts, synchronous nodes, concurrency 64) run by
 * `dist/` in a process without tsx, beside the hand-written baseline (bench/baseline/scatter-chain.ts) in a
 * process of its own, also without tsx. Needs `npm run build` first.
 *
 * The child (bench/w2-memory-child.ts) is compiled with tsc into a temporary folder and run with plain
 * `node`; it imports the package's compiled entry point. Prints each configuration's peak RSS, the
 * engine's own share (its peak minus the baseline's), and the target: under 100 MiB at 10,000 items.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { printTable } from './stats.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = join(ROOT, 'dist', 'src', 'index.js');
const TSC = fileURLToPath(new URL('bin/tsc', import.meta.resolve('typescript/package.json')));
const SIZES = [10_000, 100_000];
/** Peak RSS (MiB) the engine's process must stay under at this many items. */
const TARGET_MIB = 100;
const TARGET_AT = 10_000;

interface Figures {
  readonly mode: 'baseline' | 'engine';
  readonly size: number;
  readonly ms: number;
  readonly peakMiB: number;
}

/** Compiles the child and what it imports into `out`, as ES modules that plain `node` runs. */
function compileChild(out: string): void {
  const result = spawnSync(
    process.execPath,
    [
      TSC,
      join(ROOT, 'bench', 'w2-memory-child.ts'),
      '--outDir',
      out,
      '--rootDir',
      join(ROOT, 'bench'),
      '--module',
      'nodenext',
      '--target',
      'es2022',
      '--rewriteRelativeImportExtensions',
      '--allowImportingTsExtensions',
      '--skipLibCheck',
      '--ignoreConfig',
      '--types',
      'node',
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (result.status !== 0)
    throw new Error(`compiling the W2 child failed:\n${result.stdout}${result.stderr}`);
}

function measure(child: string, mode: Figures['mode'], size: number): Figures {
  const result = spawnSync(process.execPath, [child, mode, String(size), pathToFileURL(ENTRY).href], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = result.stdout.split('\n').find((l) => l.startsWith('{'));
  if (result.status !== 0 || line === undefined)
    throw new Error(`W2 ${mode} ${size} failed: ${result.stdout}`);
  return JSON.parse(line) as Figures;
}

async function main(): Promise<number> {
  if (!existsSync(ENTRY)) {
    process.stderr.write('w2-memory: dist/ is missing — run `npm run build` first\n');
    return 1;
  }
  const out = await mkdtemp(join(tmpdir(), 'switchyard-w2-memory-'));
  try {
    compileChild(out);
    await writeFile(join(out, 'package.json'), '{ "type": "module" }\n');
    const child = join(out, 'w2-memory-child.js');
    const rows: string[][] = [];
    for (const size of SIZES) {
      const base = measure(child, 'baseline', size);
      const engine = measure(child, 'engine', size);
      const items = `${size.toLocaleString('en')} items`;
      rows.push([
        `${items}, baseline`,
        `peak ${base.peakMiB.toFixed(1)} MiB  (${base.ms.toFixed(1)} ms a run)`,
        '',
      ]);
      rows.push([
        `${items}, engine`,
        `peak ${engine.peakMiB.toFixed(1)} MiB  (${engine.ms.toFixed(1)} ms a run)`,
        [
          `the engine's own share +${(engine.peakMiB - base.peakMiB).toFixed(1)} MiB`,
          ...(size === TARGET_AT
            ? [`${engine.peakMiB < TARGET_MIB ? 'OK' : 'MISSED'} < ${TARGET_MIB} MiB`]
            : []),
        ].join(', '),
      ]);
    }
    printTable('W2 memory, compiled package without tsx, each configuration in its own process', rows);
    return 0;
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

process.exitCode = await main();
