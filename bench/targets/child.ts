/**
 * Runs one measurement of bench/engine-targets.ts in a child process of its own (so that each one's heap,
 * garbage and peak RSS are its alone), from the compiled copy of the benchmarks (bench/targets/compiled.ts)
 * with plain `node`, and reads the one JSON line it prints.
 */
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';

/** How a child is started. */
export interface ChildOptions {
  /** Node flags before the script (e.g. `--expose-gc`). */
  readonly flags?: readonly string[];
  /** Environment variables added to this process's. */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * Runs `node <root>/bench/<script>.js …args` (`root`: a compiled copy of the tree) and returns its JSON line;
 * throws with what it printed when it fails or prints none.
 * @example
 * const figures = runChild<InflightFigures>(built.root, 'targets/inflight', ['engine', '100000', '3'], { flags: ['--expose-gc'] });
 */
export function runChild<T>(
  root: string,
  script: string,
  args: readonly string[],
  options: ChildOptions = {},
): T {
  const child = spawnSync(
    process.execPath,
    [...(options.flags ?? []), join(root, 'bench', `${script}.js`), ...args],
    {
      encoding: 'utf8',
      env: { ...process.env, ...options.env },
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const line = child.stdout.split('\n').find((l) => l.startsWith('{'));
  if (child.status !== 0 || line === undefined) {
    const said = child.stdout.trim().split('\n').at(-1) ?? '';
    throw new Error(`bench/${script} ${args.join(' ')} exited ${child.status ?? child.signal}: ${said}`);
  }
  return JSON.parse(line) as T;
}

/** The 1-minute load average now. */
export function loadNow(): number {
  return loadavg()[0] ?? Number.NaN;
}
