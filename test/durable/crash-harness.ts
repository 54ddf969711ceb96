/**
 * Drives `switchyard run` and `switchyard resume` as child processes for the crash test: starts one, watches
 * the side-effect log of the fixture nodes (test/fixtures/durable/nodes.ts) for the moment a kill mode asks
 * for, and sends SIGKILL there, or lets the process finish.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(ROOT, 'bin', 'switchyard.js');
export const FIXTURES = join(ROOT, 'test', 'fixtures', 'durable');
export const DAG = join(FIXTURES, 'crash.jsonld');
export const NODES = join(FIXTURES, 'nodes.ts');
export const POLICY = join(FIXTURES, 'crash.policy.json');

/** A seeded PRNG (mulberry32): the same seed draws the same kill moments. */
export function prng(seed: number): { next: () => number; int: (lo: number, hi: number) => number } {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)) };
}

/** One line of the side-effect log. */
export interface LogLine {
  readonly k: 'start' | 'effect' | 'end';
  readonly pid: number;
  readonly at: number;
  readonly item?: string;
  readonly placement?: string;
  readonly visit?: number;
  readonly attempt?: number;
  readonly result?: string;
  readonly retryAfterMs?: number;
  readonly key?: string;
  readonly token?: string;
}

/** The lines of the log at `path`; a last line cut short by a kill is left out. */
export function readLog(path: string): LogLine[] {
  if (!existsSync(path)) return [];
  const lines: LogLine[] = [];
  for (const text of readFileSync(path, 'utf8').split('\n')) {
    if (text === '') continue;
    try {
      lines.push(JSON.parse(text) as LogLine);
    } catch {
      // A kill can land in the middle of a write only at the very end of the file.
    }
  }
  return lines;
}

/**
 * Where a process is killed:
 * - `node`: as the n-th node execution of the process starts (its node sleeps before its step);
 * - `after-step`: a few ms after the n-th step's side effect (its value committed, the node still running);
 * - `backoff`: a few ms after the n-th execution that ends with a retryable failure (its wait going on);
 * - `window`: at the n-th step function, which blocks right after its side effect, before the commit;
 * - `random`: a random number of ms after the process's first node starts.
 */
export type KillMode = 'node' | 'after-step' | 'backoff' | 'window' | 'random' | 'none';

/** A kill plan: the mode, its n, and the ms to wait after the trigger. */
export interface KillPlan {
  readonly mode: KillMode;
  readonly n: number;
  readonly delayMs: number;
}

/** What became of a process. */
export interface Outcome {
  readonly pid: number;
  /** Wall time of the SIGKILL; undefined when the process ended by itself. */
  readonly killedAt?: number;
  /** The step key the process stopped at in `window` mode. */
  readonly windowKey?: string;
  readonly code: number | null;
  readonly out: string;
  readonly err: string;
}

/** How long a process may run before the test gives up on it (a hung run is a failure, not a wait). */
const HUNG_MS = 60_000;

/** True when the plan's trigger is in `lines` (the process's own log lines, in order). */
function triggered(plan: KillPlan, lines: readonly LogLine[], marker: string): boolean {
  const count = (k: LogLine['k'], extra: (l: LogLine) => boolean = () => true) =>
    lines.filter((l) => l.k === k && extra(l)).length;
  switch (plan.mode) {
    case 'node':
      return count('start') >= plan.n;
    case 'after-step':
      return count('effect') >= plan.n;
    case 'backoff':
      return count('end', (l) => l.result === 'retry') >= plan.n;
    case 'window':
      return existsSync(marker);
    case 'random':
      return lines.length > 0;
    case 'none':
      return false;
  }
}

/**
 * Runs `switchyard <args>` in `cwd` with `env` added, and kills it with SIGKILL where `plan` says; resolves
 * once the process is gone.
 */
export async function drive(
  args: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>>,
  log: string,
  plan: KillPlan,
): Promise<Outcome> {
  const marker = join(cwd, `pause-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  const extra: Record<string, string> = { ...env, CRASH_LOG: log };
  if (plan.mode === 'window')
    Object.assign(extra, { CRASH_PAUSE_STEP: String(plan.n), CRASH_PAUSE_MARKER: marker });
  const child: ChildProcess = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...process.env, ...extra, SWITCHYARD_STORE: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid as number;
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  let done = false;
  void exited.then(() => {
    done = true;
  });
  const started = Date.now();
  let killedAt: number | undefined;
  let windowKey: string | undefined;
  while (!done) {
    const mine = readLog(log).filter((l) => l.pid === pid);
    if (triggered(plan, mine, marker)) {
      if (plan.delayMs > 0 && plan.mode !== 'window') await sleep(plan.delayMs);
      if (!done) {
        killedAt = Date.now();
        child.kill('SIGKILL');
        if (existsSync(marker)) windowKey = readFileSync(marker, 'utf8');
      }
      break;
    }
    if (Date.now() - started > HUNG_MS) {
      child.kill('SIGKILL');
      throw new Error(`switchyard ${args.join(' ')} did not end within ${HUNG_MS} ms:\n${err}`);
    }
    await sleep(2);
  }
  const code = await exited;
  rmSync(marker, { force: true });
  return {
    pid,
    code,
    out,
    err,
    ...(killedAt === undefined ? {} : { killedAt }),
    ...(windowKey === undefined ? {} : { windowKey }),
  };
}
