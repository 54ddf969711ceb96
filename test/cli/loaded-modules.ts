/**
 * Starts a program from the sources with a preload that records every module the process loads (ES modules
 * through a loader hook, CommonJS through `require`), and returns the packages and source files it loaded.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PRELOAD = fileURLToPath(new URL('../fixtures/loaded-modules/record.mjs', import.meta.url));

/** What one process loaded. */
export interface Loaded {
  /** Package names under node_modules, e.g. `jsonld`, `@mermaid-js/mermaid-cli`. */
  readonly packages: ReadonlySet<string>;
  /** Files of this repository outside node_modules, relative to its root, e.g. `src/document/load.ts`. */
  readonly files: ReadonlySet<string>;
  readonly stdout: string;
}

function packageOf(path: string): string | undefined {
  const at = path.lastIndexOf('/node_modules/');
  if (at < 0) return undefined;
  const parts = path.slice(at + '/node_modules/'.length).split('/');
  return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
}

/** Runs `node <entry> <args…>` in the repository root and lists what it loaded. */
export async function loadedBy(entry: string, args: readonly string[]): Promise<Loaded> {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-loaded-'));
  const list = join(dir, 'loaded.txt');
  try {
    const { stdout } = await run(process.execPath, ['--import', PRELOAD, join(ROOT, entry), ...args], {
      cwd: ROOT,
      env: { ...process.env, LOADED_MODULES_FILE: list, SWITCHYARD_STORE: join(dir, 'runs.db') },
    });
    const paths = (await readFile(list, 'utf8'))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => (line.startsWith('file://') ? fileURLToPath(line) : line));
    const packages = new Set(paths.flatMap((p) => packageOf(p) ?? []));
    const files = new Set(
      paths
        .filter((p) => p.startsWith(ROOT) && !p.includes('/node_modules/'))
        .map((p) => p.slice(ROOT.length)),
    );
    return { packages, files, stdout };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
