/**
 * Runs the real `switchyard` program in a child process on a fuzz case, for what only a process shows:
 * its exit code, whether a stack trace reaches stderr, and whether it ends at all (a hung child is killed
 * at the case limit and reported).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SWITCHYARD } from '../cli-entry.ts';
import { EXIT_CODES, type FuzzCase, type Violation, writeCase } from './commands.ts';

const STACK = /^\s+at |RangeError|TypeError|ReferenceError|Maximum call stack|node:internal/m;
const CODE = /\b[EW]_[A-Z][A-Z0-9_]*\b/;

/** The child's exit code (or the signal that ended it) and its output. */
interface ChildResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly out: string;
  readonly err: string;
}

function runChild(args: readonly string[], cwd: string, limitMs: number): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...SWITCHYARD, ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: limitMs,
      killSignal: 'SIGKILL',
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      err += d;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, out, err }));
  });
}

/**
 * Runs `switchyard <command> <target> ...extra` on the case in a fresh folder and returns the promises it
 * broke: killed at `limitMs`, an undocumented exit code, a stack trace on stderr, a stderr line without a
 * code.
 */
export async function runInChild(
  c: FuzzCase,
  command: readonly string[],
  limitMs: number,
): Promise<Violation[]> {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-fuzz-child-'));
  try {
    await writeCase(dir, c);
    const [name = '', ...rest] = command;
    const r = await runChild([name, c.target, ...rest], dir, limitMs);
    const violations: Violation[] = [];
    const add = (kind: Violation['kind'], detail: string) => violations.push({ kind, command: name, detail });
    if (r.signal !== null) add('crash', `killed by ${r.signal} after the ${limitMs} ms limit (a hang)`);
    else if (!EXIT_CODES.includes(r.code ?? -1)) add('exit-code', `exit code ${r.code}`);
    const stack = STACK.exec(r.err);
    if (stack)
      add(
        'crash',
        `stderr shows '${stack[0].trim()}': ${r.err.split('\n').slice(0, 2).join(' | ').slice(0, 300)}`,
      );
    for (const line of r.err.split('\n')) {
      if (line.trim() !== '' && !CODE.test(line))
        add('uncoded', `stderr line without a code: ${line.slice(0, 200)}`);
    }
    return violations;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
