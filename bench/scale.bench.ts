/**
 * Scale of the static commands: `validate`, `inspect` and `hash` on generated chains and lattices of 1,000,
 * 10,000 and 100,000 placements (SIZES overrides, comma-separated). Each is timed through the library
 * functions its command uses: validate = `checkDocuments` (read, parse, schema, analysis), inspect = what it
 * adds on a loaded document (`compile`, `computeBounds`, `findCycles` and the hash), hash = the canonical
 * N-Quads and their SHA-256. Prints the median of several runs (RUNS, fewer at the largest size), the cost
 * per placement, and whether the cost per placement at the largest size is within 2× of the smallest; and
 * one whole `switchyard` process per command at 1,000 placements for reference.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { checkDocuments } from '../src/cli/check.ts';
import { canonicalNQuads } from '../src/document/hash.ts';
import type { Dag } from '../src/document/model.ts';
import { toDocument } from '../src/document/serialise.ts';
import { computeBounds } from '../src/graph/bounds.ts';
import { compile } from '../src/graph/compile.ts';
import { findCycles } from '../src/graph/cycles.ts';
import { generateChain, generateLattice } from './generate.ts';
import { median, printTable } from './stats.ts';

const SIZES = (process.env.SIZES ?? '1000,10000,100000').split(',').map(Number);
const RUNS = Number(process.env.RUNS ?? 5);
/** Runs at sizes of 100,000 and more, where one run takes seconds. */
const LARGE_RUNS = Number(process.env.LARGE_RUNS ?? 3);
const BIN = fileURLToPath(new URL('../bin/switchyard.js', import.meta.url));

type Shape = 'chain' | 'lattice';
type Command = 'validate' | 'inspect' | 'hash';
const generators: Record<Shape, (n: number) => Dag> = { chain: generateChain, lattice: generateLattice };

async function sha(dag: Dag): Promise<string> {
  return createHash('sha256')
    .update(await canonicalNQuads(dag), 'utf8')
    .digest('hex');
}

async function measure(runs: number, fn: () => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

async function timeShape(shape: Shape, size: number, folder: string): Promise<Record<Command, number>> {
  const dag = generators[shape](size);
  const file = join(folder, `${shape}-${size}.jsonld`);
  writeFileSync(file, JSON.stringify(toDocument(dag)));
  const runs = size >= 100_000 ? LARGE_RUNS : RUNS;
  const validate = async (): Promise<void> => {
    const checked = await checkDocuments([file], folder);
    if (!checked.valid.has(file)) throw new Error(`${file} did not validate`);
  };
  const inspect = async (): Promise<void> => {
    const compiled = compile(dag);
    computeBounds(compiled);
    findCycles(compiled);
    await sha(dag);
  };
  const hash = () => sha(dag);
  // One untimed pass of each at the smallest size: schema compilation and JIT warm-up.
  if (size === SIZES[0]) for (const warm of [validate, inspect, hash]) await warm();
  return {
    validate: await measure(runs, validate),
    inspect: await measure(runs, inspect),
    hash: await measure(runs, hash),
  };
}

function wholeProcess(command: Command, file: string): number {
  const start = performance.now();
  const result = spawnSync(process.execPath, [BIN, command, file], { encoding: 'utf8' });
  const ms = performance.now() - start;
  if (result.status !== 0) throw new Error(`switchyard ${command} failed: ${result.stderr}`);
  return ms;
}

const folder = mkdtempSync(join(tmpdir(), 'switchyard-scale-'));
try {
  const commands: Command[] = ['validate', 'inspect', 'hash'];
  const rows: string[][] = [['shape', 'placements', 'command', 'median', 'per placement']];
  const verdicts: string[][] = [];
  for (const shape of ['chain', 'lattice'] as const) {
    const perPlacement = new Map<string, number>();
    for (const size of SIZES) {
      const times = await timeShape(shape, size, folder);
      for (const command of commands) {
        const ms = times[command];
        perPlacement.set(`${command}@${size}`, ms / size);
        const row = [
          shape,
          size.toLocaleString('en'),
          command,
          `${ms.toFixed(1)} ms`,
          `${((ms / size) * 1000).toFixed(1)} µs`,
        ];
        rows.push(row);
        // Progress, for runs that take minutes at the largest size.
        process.stderr.write(`  ${row.join('  ')}\n`);
      }
    }
    const [first, last] = [SIZES[0] as number, SIZES[SIZES.length - 1] as number];
    for (const command of commands) {
      const ratio =
        (perPlacement.get(`${command}@${last}`) ?? 0) / (perPlacement.get(`${command}@${first}`) ?? 1);
      verdicts.push([
        `${shape} ${command}`,
        `${ratio.toFixed(2)}×`,
        ratio <= 2
          ? `within 2× of ${first.toLocaleString('en')}`
          : `NOT within 2× of ${first.toLocaleString('en')}`,
      ]);
    }
  }
  printTable(`validate, inspect and hash at scale (median of ${RUNS} runs; ${LARGE_RUNS} at 100,000)`, rows);
  printTable(`cost per placement at ${SIZES[SIZES.length - 1]} over that at ${SIZES[0]}`, verdicts);

  const reference = join(folder, 'reference.jsonld');
  writeFileSync(reference, JSON.stringify(toDocument(generateLattice(1000))));
  printTable(
    'whole switchyard process on a 1,000-placement lattice (one run each, start-up included)',
    commands.map((command) => [command, `${wholeProcess(command, reference).toFixed(0)} ms`]),
  );
} finally {
  rmSync(folder, { recursive: true, force: true });
}
