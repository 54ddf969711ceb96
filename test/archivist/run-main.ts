import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { ArchivistEnv } from '../../examples/archivist/environment.ts';
import { main } from '../../examples/archivist/main.ts';
import { normalise } from '../../nodes/archivist/catalog.ts';
import type { Book } from '../../nodes/archivist/types.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import { createVirtualClock, type VirtualClock } from '../../src/policy/virtual-clock.ts';

/** The store in-process runs record into when a test names neither a folder nor an environment. */
const TEST_STORE = join(tmpdir(), `switchyard-archivist-tests-${process.pid}.db`);
process.once('exit', () => {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${TEST_STORE}${suffix}`, { force: true });
});

/** What one run of the program printed. */
export interface MainRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
  readonly clock: VirtualClock;
}

/** Options of an in-process run: environment variables, a policy replacing the files, the folder. */
export interface MainOptions {
  readonly env?: Record<string, string>;
  readonly policy?: PolicyInput;
  readonly cwd?: string;
}

/** The environment of an in-process run on a virtual clock, and what it printed so far. */
export function virtualEnv(options: MainOptions = {}): {
  io: ArchivistEnv;
  clock: VirtualClock;
  printed: () => { out: string; err: string };
} {
  let out = '';
  let err = '';
  const clock = createVirtualClock({ auto: true });
  const io: ArchivistEnv = {
    out: (text) => {
      out += text.endsWith('\n') ? text : `${text}\n`;
    },
    err: (text) => {
      err += text.endsWith('\n') ? text : `${text}\n`;
    },
    // Runs in the repository's folder record into a store of this test process, not the repository's.
    env: options.env ?? (options.cwd === undefined ? { SWITCHYARD_STORE: TEST_STORE } : {}),
    clock,
    isTTY: false,
    cwd: options.cwd ?? process.cwd(),
    stdin: new PassThrough(),
    stdout: new PassThrough(),
    progress: process.stderr,
    ...(options.policy ? { policy: options.policy } : {}),
  };
  return { io, clock, printed: () => ({ out, err }) };
}

/** Runs `archivist …` in-process on a virtual clock, capturing its output. */
export async function runMain(args: readonly string[], options: MainOptions = {}): Promise<MainRun> {
  const { io, clock, printed } = virtualEnv(options);
  const code = await main(['node', 'archivist', ...args], io);
  return { code, ...printed(), clock };
}

const CATALOG = fileURLToPath(new URL('../../examples/archivist/catalog.json', import.meta.url));

/** The titles of the bundled catalog, normalised. */
export const CATALOG_TITLES: ReadonlySet<string> = new Set(
  (JSON.parse(readFileSync(CATALOG, 'utf8')) as Book[]).map((b) => normalise(b.title)),
);

/** Every title an answer quotes ("…"). */
export function quotedTitles(answer: string): string[] {
  return [...answer.matchAll(/"([^"]+)"/g)].map((m) => m[1] ?? '');
}
