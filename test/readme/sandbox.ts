/**
 * Where a transcript's commands run: a fresh folder that looks like the repository root (a link to each of
 * its entries), so that the paths the README writes (`dags/…`, `dist/…`, `test/fixtures/…`) work and what
 * the commands write (`run.jsonl`, the default run store `.switchyard/runs.db`) stays out of the checkout
 * and starts empty. `switchyard` and `archivist` are on the PATH, as after `npm link`; `npm run -s
 * switchyard -- …` runs the same compiled program through npm.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A command that has not ended by then is stopped and reported: a hang guard, not a timing check. */
const HANG_GUARD_MS = 120_000;

// Variables of an outer `npm test` would point the inner npm at this package's own scripts and settings;
// the others would change where the programs record runs or how they print.
const INHERITED =
  /^(?:npm_|INIT_CWD$|NODE_OPTIONS$|SWITCHYARD_|NO_COLOR$|FORCE_COLOR$|OPENAI_API_KEY$|COLUMNS$)/u;

/** A folder that stands for the repository root, and the environment its commands run in. */
export interface Sandbox {
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;
  /** Removes the folder. */
  remove(): Promise<void>;
}

/** Makes a fresh {@link Sandbox}. */
export async function makeSandbox(): Promise<Sandbox> {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-readme-'));
  for (const entry of await readdir(ROOT)) {
    // Dot-entries hold local state (.git, .switchyard, build leftovers); the README names none of them.
    if (!entry.startsWith('.')) await symlink(join(ROOT, entry), join(dir, entry));
  }
  const bin = join(dir, '.bin');
  await mkdir(bin);
  await symlink(join(ROOT, 'bin', 'switchyard.js'), join(bin, 'switchyard'));
  await symlink(join(ROOT, 'bin', 'archivist.js'), join(bin, 'archivist'));
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!INHERITED.test(key)) env[key] = value;
  env.PATH = [bin, process.env.PATH ?? ''].join(delimiter);
  return { dir, env, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** What a command printed, stdout and stderr in the order it wrote them, as a terminal shows them. */
export interface Printed {
  readonly lines: readonly string[];
  readonly code: number | null;
}

/** Runs `command` with bash in `sandbox`, its stderr going where its stdout goes. */
export function runInSandbox(command: string, sandbox: Sandbox): Promise<Printed> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `exec 2>&1\n${command}`], {
      cwd: sandbox.dir,
      env: sandbox.env,
      stdio: ['ignore', 'pipe', 'inherit'],
      timeout: HANG_GUARD_MS,
      killSignal: 'SIGKILL',
    });
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const lines = text === '' ? [] : text.replace(/\n$/u, '').split('\n');
      if (signal !== null) lines.push(`[stopped with ${signal} after ${HANG_GUARD_MS} ms]`);
      resolve({ lines, code });
    });
  });
}
