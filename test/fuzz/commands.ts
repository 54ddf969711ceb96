/**
 * Runs one fuzz case: writes its files to a folder of its own, runs `validate`, `inspect`, `hash`,
 * `render -o out.mmd` and `run` through the CLI's `main` with captured output (in a worker thread, so that
 * a command that never ends can be stopped), and checks what every case must satisfy, returning each
 * broken promise as a {@link Violation}.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInWorker } from './cli-worker.ts';
import { ANOMALY, type FuzzNodeSpec } from './nodes.ts';
import { boundProblems, diagramProblems } from './output-checks.ts';
import { prototypeChanges, snapshotPrototypes } from './prototypes.ts';
import { checkRun, parseJson } from './run-checks.ts';

/** What kind of promise a case broke. */
export type ViolationKind =
  | 'crash'
  | 'hang'
  | 'exit-code'
  | 'uncoded'
  | 'pollution'
  | 'inconsistent'
  | 'run'
  | 'anomaly';

/** One broken promise, with the command it was seen on. */
export interface Violation {
  readonly kind: ViolationKind;
  readonly command: string;
  readonly detail: string;
}

/** One case: the files of its folder, the document the commands name, and what `run` gets. */
export interface FuzzCase {
  /** File contents by path relative to the case folder. */
  readonly files: ReadonlyMap<string, string | Uint8Array>;
  /** The document given to every command, relative to the case folder. */
  readonly target: string;
  readonly nodes: readonly FuzzNodeSpec[];
  /** Seeds the nodes' behaviour and the run's jitter. */
  readonly seed: number;
  /** The `--input` file's text. */
  readonly input: string;
  /** Whether the nodes check `ctx.attempts` of prototype names on every execution. */
  readonly probe?: boolean;
  /** Entries that are not regular files, by path relative to the case folder. */
  readonly specials?: ReadonlyMap<string, Special>;
}

/** A folder entry that is not a regular file: a folder, a link to itself or to nothing, a named pipe. */
export type Special = 'folder' | 'self-link' | 'dangling-link' | 'fifo';

/** What one command did. */
export interface CommandResult {
  readonly name: string;
  readonly code: number;
  readonly out: string;
  readonly err: string;
  /** The message of an error `main` let escape: a bug, printed with a stack trace by the real program. */
  readonly thrown?: string;
  /** Why the command was stopped, when it did not end within {@link COMMAND_LIMIT_MS}. */
  readonly hung?: string;
}

/** Everything a case did, and the promises it broke. */
export interface CaseReport {
  readonly results: readonly CommandResult[];
  readonly violations: readonly Violation[];
}

/** The exit codes the command line documents: success, a refusal or failed run, a usage error. */
export const EXIT_CODES: readonly number[] = [0, 1, 2];

const NODES_FACTORY = fileURLToPath(new URL('./nodes.ts', import.meta.url));
const STACK =
  /^\s+at |RangeError|TypeError|ReferenceError|SyntaxError: |Maximum call stack|\[object Object\]/m;
const CODE = /\b[EW]_[A-Z][A-Z0-9_]*\b/;

/**
 * How long one command may take before it is reported as hung and stopped. Commands that work end in well
 * under a second (the worker is started and loaded before the clock starts); this bounds one that loops
 * without end, and keeps each shrinking step of a hanging case short.
 */
export const COMMAND_LIMIT_MS = 5_000;

/** Runs one command in the CLI worker. */
async function cli(
  name: string,
  args: readonly string[],
  cwd: string,
): Promise<CommandResult & { pollution: readonly string[] }> {
  const outcome = await runInWorker(args, cwd, COMMAND_LIMIT_MS);
  if (outcome.kind === 'hung') return { name, code: -1, out: '', err: '', hung: outcome.why, pollution: [] };
  const { code, out, err, thrown, pollution } = outcome.reply;
  return { name, code, out, err, ...(thrown === undefined ? {} : { thrown }), pollution };
}

/** The promises every command keeps, whatever it was given. */
function checkCommand(r: CommandResult, violations: Violation[]): void {
  const add = (kind: ViolationKind, detail: string) => violations.push({ kind, command: r.name, detail });
  if (r.hung !== undefined) add('hang', r.hung);
  if (r.thrown !== undefined) add('crash', `main threw ${r.thrown}`);
  const stack = STACK.exec(`${r.err}\n${r.name === 'run' ? '' : r.out}`);
  if (stack) add('crash', `output shows '${stack[0].trim()}': ${firstLineWith(r.err + r.out, stack[0])}`);
  if (r.thrown === undefined && r.hung === undefined && !EXIT_CODES.includes(r.code)) {
    add('exit-code', `exit code ${r.code}`);
  }
  for (const l of r.err.split('\n')) {
    if (l.trim() !== '' && !CODE.test(l)) add('uncoded', `stderr line without a code: ${l.slice(0, 200)}`);
  }
  if (r.name === 'validate') {
    const lines = r.out.split('\n').filter((l) => l.trim() !== '' && !/ checked: /.test(l));
    for (const l of lines)
      if (!CODE.test(l)) add('uncoded', `problem line without a code: ${l.slice(0, 200)}`);
  }
  if ((r.out + r.err).includes(ANOMALY)) add('anomaly', firstLineWith(r.out + r.err, ANOMALY));
}

function firstLineWith(text: string, needle: string): string {
  return (text.split('\n').find((l) => l.includes(needle)) ?? '').trim().slice(0, 300);
}

/** Writes the case's files and special entries into `dir`, creating folders as needed. */
export async function writeCase(dir: string, c: FuzzCase): Promise<void> {
  for (const [path, content] of c.files) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  const module = [
    `import { fuzzNodes } from ${JSON.stringify(NODES_FACTORY)};`,
    `export const nodes = fuzzNodes(${JSON.stringify(c.nodes)}, ${c.seed}, ${c.probe === true});`,
  ].join('\n');
  await writeFile(join(dir, 'fuzz-nodes.ts'), module);
  for (const [path, special] of c.specials ?? []) {
    const file = join(dir, path);
    await mkdir(dirname(file), { recursive: true });
    if (special === 'folder') await mkdir(file, { recursive: true });
    else if (special === 'self-link') await symlink(basename(file), file);
    else if (special === 'dangling-link') await symlink('nowhere.jsonld', file);
    else execFileSync('mkfifo', [file]);
  }
  await writeFile(join(dir, 'input.json'), c.input);
}

/**
 * Runs one command on a case (its folder written as for {@link runCase}) and checks what every command
 * keeps; `{target}` in `args` stands for the case's document, as an absolute path.
 */
export async function runCommand(c: FuzzCase, args: readonly string[]): Promise<CaseReport> {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-fuzz-'));
  try {
    await writeCase(dir, c);
    const target = join(dir, c.target);
    const { pollution, ...r } = await cli(
      args[0] ?? '',
      args.map((a) => a.replace('{target}', target)),
      dir,
    );
    const violations: Violation[] = [];
    checkCommand(r, violations);
    for (const change of pollution) violations.push({ kind: 'pollution', command: r.name, detail: change });
    return { results: [r], violations };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Which commands a case runs; `run` is the slowest, so some suites leave it out. */
export interface CaseOptions {
  readonly run?: boolean;
  readonly render?: boolean;
  /** Also `validate --nodes` with the case's nodes module, so node IRIs are looked up as a run would. */
  readonly validateWithNodes?: boolean;
}

/**
 * Runs the commands on one case in a fresh temporary folder and checks them: no crash or stack trace, a
 * documented exit code, a code on every refusal line, no prototype changed, and a document `validate`
 * accepts is also inspected, hashed, rendered and run (one it refuses, none of them).
 */
export async function runCase(c: FuzzCase, options: CaseOptions = {}): Promise<CaseReport> {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-fuzz-'));
  const violations: Violation[] = [];
  const results: CommandResult[] = [];
  const before = snapshotPrototypes();
  try {
    await writeCase(dir, c);
    const step = async (name: string, args: readonly string[]): Promise<CommandResult> => {
      const { pollution, ...r } = await cli(name, args, dir);
      results.push(r);
      checkCommand(r, violations);
      for (const change of pollution) violations.push({ kind: 'pollution', command: name, detail: change });
      return r;
    };
    // Absolute, as the subprocess would resolve it against its working folder: in process, `validate`
    // resolves a relative path against process.cwd() rather than io.cwd.
    const target = join(dir, c.target);
    const validate = await step('validate', ['validate', target]);
    if (options.validateWithNodes)
      await step('validate --nodes', ['validate', target, '--nodes', 'fuzz-nodes.ts']);
    const inspect = await step('inspect', ['inspect', target, '--json']);
    const hash = await step('hash', ['hash', target]);
    const render =
      options.render === false ? undefined : await step('render', ['render', target, '-o', 'out.mmd']);
    const run =
      options.run === false
        ? undefined
        : await step('run', [
            'run',
            target,
            ...[
              '--nodes',
              'fuzz-nodes.ts',
              '--input',
              '@input.json',
              '--virtual-time',
              '--deadline',
              '3600000',
            ],
            ...['--seed', String(c.seed), '--json', '--events', 'events.jsonl'],
          ]);
    const inconsistent = (command: string, detail: string) =>
      violations.push({ kind: 'inconsistent', command, detail });
    const accepted = validate.code === 0;
    for (const r of [inspect, hash, render, run]) {
      if (r === undefined || r.thrown !== undefined || r.hung !== undefined) continue;
      if (accepted && r.name !== 'run' && r.code !== 0)
        inconsistent(r.name, `validate accepts but ${r.name} exits ${r.code}: ${firstLine(r.err)}`);
      if (!accepted && validate.code === 1 && r.code === 0)
        inconsistent(r.name, `validate refuses but ${r.name} exits 0`);
    }
    if (accepted && hash.code === 0) {
      const digest = /^([0-9a-f]{64})\s/.exec(hash.out)?.[1];
      if (digest === undefined) inconsistent('hash', `no SHA-256 in: ${firstLine(hash.out)}`);
      const inspected = parseJson(inspect.out) as { hash?: unknown } | undefined;
      if (inspect.code === 0 && inspected?.hash !== digest)
        inconsistent('inspect', `inspect --json hash ${String(inspected?.hash)} is not hash's ${digest}`);
    }
    if (accepted && inspect.code === 0) {
      for (const problem of boundProblems(inspect.out)) inconsistent('inspect', problem);
    }
    if (render?.code === 0) {
      for (const problem of diagramProblems(await readFile(join(dir, 'out.mmd'), 'utf8').catch(() => ''))) {
        violations.push({ kind: 'inconsistent', command: 'render', detail: problem });
      }
    }
    if (run !== undefined && run.thrown === undefined && run.hung === undefined && accepted) {
      for (const v of await checkRun(dir, run, inspect)) violations.push(v);
    }
  } finally {
    for (const change of prototypeChanges(before))
      violations.push({ kind: 'pollution', command: 'after', detail: change });
    await rm(dir, { recursive: true, force: true });
  }
  return { results, violations };
}

function firstLine(text: string): string {
  return (text.split('\n').find((l) => l.trim() !== '') ?? '').slice(0, 200);
}
