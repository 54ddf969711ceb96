/**
 * Cold start: each command of the compiled programs (`bin/switchyard.js`, `bin/archivist.js`, which run
 * `dist/`; run `npm run build` first) started as a whole process, beside `node -e 0` started the same way in
 * the same rounds. Prints the median wall time of each, its ratio to `node -e 0`, and its peak RSS, with the
 * targets and OK or MISSED.
 *
 * The rounds interleave the commands, so a busy machine slows them all alike; the first round only warms the
 * file cache and is not counted. Wall time is measured around the process, with nothing added to it; peak RSS
 * comes from separate runs of the same command under a preload that reports the process's own
 * `resourceUsage().maxRSS` as it exits. The commands run in a fresh temporary folder, so `run` and `ask`
 * record into a fresh run store there, as they would for a new user. `COLD_START_RUNS=n` sets the rounds
 * (default 11).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { median, printTable } from './stats.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.COLD_START_RUNS ?? 11);
/** Runs per command under the RSS preload; the figure is their largest peak. */
const RSS_RUNS = 3;
const COMPOSE_INPUT = '{"topic":"whales","rejections":5,"fail":"429"}';

/** One command measured: its arguments to `node`, and its targets when it has them. */
interface Case {
  readonly name: string;
  readonly args: readonly string[];
  /** The most its median may take, as a multiple of `node -e 0`'s. */
  readonly maxRatio?: number;
  /** The most its peak RSS may be, in MiB. */
  readonly maxMiB?: number;
}

const switchyard = (...args: string[]) => [join(ROOT, 'bin', 'switchyard.js'), ...args];
const archivist = (...args: string[]) => [join(ROOT, 'bin', 'archivist.js'), ...args];
const runCompose = (nodes: string, ...more: string[]) =>
  switchyard(
    'run',
    join(ROOT, 'dags', 'compose-validate.jsonld'),
    '--nodes',
    nodes,
    '--input',
    COMPOSE_INPUT,
    '--virtual-time',
    '--seed',
    '1',
    ...more,
  );

const BASELINE: Case = { name: 'node -e 0', args: ['-e', '0'] };

const CASES: readonly Case[] = [
  BASELINE,
  { name: 'switchyard --help', args: switchyard('--help'), maxRatio: 2 },
  {
    name: 'switchyard validate dags/compose-validate.jsonld',
    args: switchyard('validate', join(ROOT, 'dags', 'compose-validate.jsonld')),
    maxRatio: 3,
    maxMiB: 70,
  },
  { name: 'switchyard validate dags (7 documents)', args: switchyard('validate', join(ROOT, 'dags')) },
  {
    name: 'switchyard run compose/validate --virtual-time (nodes.js)',
    args: runCompose(join(ROOT, 'dist', 'examples', 'compose-validate', 'nodes.js')),
    maxRatio: 4,
  },
  {
    name: '  the same, --no-store',
    args: runCompose(join(ROOT, 'dist', 'examples', 'compose-validate', 'nodes.js'), '--no-store'),
  },
  {
    name: '  the same with nodes.ts (loads tsx)',
    args: runCompose(join(ROOT, 'examples', 'compose-validate', 'nodes.ts')),
  },
  {
    name: 'archivist ask "recommend something like Dune"',
    args: archivist('ask', 'recommend something like Dune'),
    maxRatio: 5,
  },
];

/** Starts `node <args>` in `cwd` and resolves to its wall time in ms; a failing command fails the bench. */
function timeOnce(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = performance.now() - start;
      if (code === 0) resolve(ms);
      else reject(new Error(`node ${args.join(' ')} exited ${code}: ${err.trim()}`));
    });
  });
}

/** The peak RSS (MiB) of one run, as the process itself reports it when it exits. */
async function peakMiB(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, hook: string) {
  const out = join(cwd, 'rss.txt');
  await timeOnce(['--import', hook, ...args], cwd, { ...env, COLD_START_RSS_FILE: out });
  return Number(await readFile(out, 'utf8')) / 1024;
}

// Written to the temporary folder and preloaded with --import: it adds nothing to the process but this.
const RSS_HOOK = `import { writeFileSync } from 'node:fs';
process.on('exit', () => writeFileSync(process.env.COLD_START_RSS_FILE, String(process.resourceUsage().maxRSS)));
`;

async function main(): Promise<number> {
  if (!existsSync(join(ROOT, 'dist', 'src', 'cli', 'main.js'))) {
    process.stderr.write('cold-start: dist/ is missing — run `npm run build` first\n');
    return 1;
  }
  const cwd = await mkdtemp(join(tmpdir(), 'switchyard-cold-start-'));
  try {
    const hook = join(cwd, 'rss-hook.mjs');
    await writeFile(hook, RSS_HOOK);
    // No terminal and no colour: the progress line of `run` and `ask` is off, as in a pipe.
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
    delete env.SWITCHYARD_STORE;
    delete env.ARCHIVIST_CATALOG;
    const samples = new Map<Case, number[]>(CASES.map((c) => [c, []]));
    for (let round = 0; round <= ROUNDS; round++) {
      for (const c of CASES) {
        const ms = await timeOnce(c.args, cwd, env);
        if (round > 0) samples.get(c)?.push(ms);
      }
    }
    const peaks = new Map<Case, number>();
    for (const c of CASES) {
      let peak = 0;
      for (let i = 0; i < RSS_RUNS; i++) peak = Math.max(peak, await peakMiB(c.args, cwd, env, hook));
      peaks.set(c, peak);
    }
    const base = median(samples.get(BASELINE) ?? []);
    const baseMiB = peaks.get(BASELINE) ?? 0;
    let missed = 0;
    const rows = CASES.map((c) => {
      const ms = median(samples.get(c) ?? []);
      const ratio = ms / base;
      const mib = peaks.get(c) ?? 0;
      const notes: string[] = [];
      if (c.maxRatio !== undefined) {
        const ok = ratio <= c.maxRatio;
        if (!ok) missed++;
        notes.push(`${ok ? 'OK' : 'MISSED'} ≤ ${c.maxRatio}×`);
      }
      if (c.maxMiB !== undefined) {
        const ok = mib < c.maxMiB;
        if (!ok) missed++;
        notes.push(`${ok ? 'OK' : 'MISSED'} < ${c.maxMiB} MiB`);
      }
      return [
        c.name,
        `${ms.toFixed(0).padStart(4)} ms  ${ratio.toFixed(2)}×  peak ${mib.toFixed(0)} MiB (+${(mib - baseMiB).toFixed(0)})`,
        notes.join(', '),
      ];
    });
    printTable(
      `Cold start of the compiled programs: median of ${ROUNDS} runs, × node -e 0 (${base.toFixed(0)} ms, ${baseMiB.toFixed(0)} MiB) in the same rounds`,
      rows,
    );
    process.stdout.write(missed === 0 ? '\nevery target met\n' : `\n${missed} target(s) MISSED\n`);
    return 0;
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}

process.exitCode = await main();
