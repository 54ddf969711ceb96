/**
 * `-` for standard input and output: every place a command reads a file reads standard input for `-` (named
 * `<stdin>` in messages, with line:column), every place it writes one writes standard output, and no command
 * ever creates a file named `-`. Flags that cannot stand for a stream refuse `-` in one line.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runMain } from '../archivist/run-main.ts';
import { SWITCHYARD } from '../cli-entry.ts';
import { type CliResult, runCli, runCliBytes } from './run-cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CV = join(ROOT, 'dags/compose-validate.jsonld');
const NODES = join(ROOT, 'test/fixtures/nodes/compose-validate.ts');

let dir: string;
let text: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-stdio-'));
  await copyFile(CV, join(dir, 'cv.jsonld'));
  text = await readFile(CV, 'utf8');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  // No command may take `-` for a file name.
  expect(existsSync(join(dir, '-'))).toBe(false);
});

/** A refusal: `code`, one line on stderr matching `message`, nothing on stdout, no stack trace. */
function expectOneLine(result: CliResult, code: number, message: RegExp): void {
  expect(result.code, result.err).toBe(code);
  const lines = result.err.trimEnd().split('\n');
  expect(lines, result.err).toHaveLength(1);
  expect(lines[0]).toMatch(message);
  expect(result.err).not.toMatch(/^\s+at /m);
  expect(result.out).toBe('');
}

/** A document with a JSON syntax error on line 4 and a schema error on line 3 once that is fixed. */
const BROKEN = '{\n  "@context": "https://w3id.org/switchyard/context/v1",\n  "@id": 5,\n}\n';
const WRONG = '{\n  "@context": "https://w3id.org/switchyard/context/v1",\n  "@id": 5\n}\n';

describe('- reads a DAG document from standard input', () => {
  it('hash, inspect, export and validate read it as they read the file', async () => {
    for (const args of [['hash'], ['inspect', '--json'], ['export', '--format', 'nquads'], ['validate']]) {
      const fromFile = await runCli([...args, 'cv.jsonld'], dir);
      const fromStdin = await runCli([...args, '-'], dir, { stdin: text });
      expect(fromStdin.code, fromStdin.err).toBe(0);
      expect(fromStdin.out, args.join(' ')).toBe(fromFile.out);
    }
  });

  it('a document from standard input is named <stdin>, with line and column, in every problem', async () => {
    const invalid = await runCli(['validate', '-'], dir, { stdin: BROKEN });
    expect(invalid.code).toBe(1);
    expect(invalid.out).toMatch(/^<stdin>:4:1 error E_JSON_SYNTAX /m);
    const wrong = await runCli(['hash', '-'], dir, { stdin: WRONG });
    expect(wrong.code).toBe(1);
    expect(wrong.err).toMatch(/^switchyard: <stdin> is not a valid DAG \(E_SCHEMA/);
    expect(wrong.err).toMatch(/^<stdin>:3:3 error E_SCHEMA @id: must be string/m);
    const json = JSON.parse((await runCli(['validate', '--json', '-'], dir, { stdin: WRONG })).out);
    expect(json[0].file).toBe('<stdin>');
  });

  it('validate and render take - among files, once however often it is named', async () => {
    const both = await runCli(['validate', '-', 'cv.jsonld', '-'], dir, { stdin: WRONG });
    expect(both.out).toMatch(/2 documents checked: 1 invalid/);
    const drawn = await runCli(['render', '-', '-o', 'piped.mmd'], dir, { stdin: text });
    expect(drawn.code, drawn.err).toBe(0);
    expect(await readFile(join(dir, 'piped.mmd'), 'utf8')).toMatch(/^%%\{init/);
  });

  it('run - runs the piped document, with no policy beside it and no file recorded for it', async () => {
    const store = join(dir, 'runs.db');
    const result = await runCli(['run', '-', '--nodes', NODES, '--store', store, '--json'], dir, {
      stdin: text,
    });
    expect(result.code, result.err).toBe(0);
    const summary = JSON.parse(result.out);
    expect([summary.status, summary.policy]).toEqual(['completed', null]);
    const shown = JSON.parse(
      (await runCli(['runs', 'show', summary.runId, '--store', store, '--json'], dir)).out,
    );
    expect(shown.dag.file).toBeUndefined();
    expect(shown.options.files).toEqual({});
  });

  it('nothing piped is one line saying what to pipe', async () => {
    expectOneLine(
      await runCli(['inspect', '-'], dir, { stdin: '' }),
      1,
      /^switchyard: <stdin> is empty, but - asks for a DAG document there — pipe it in, e\.g\. .* \(E_INPUT\)$/,
    );
  });
});

describe('- for the other files a command reads', () => {
  it('--input @- reads the input items, and bad JSON there is <stdin> with its position', async () => {
    const items = '[{"topic":"whales"},{"topic":"owls"}]';
    // `--input -` as well: no JSON text is `-`.
    for (const flag of ['@-', '-']) {
      const result = await runCli(
        ['run', 'cv.jsonld', '--nodes', NODES, '--no-store', '--input', flag, '--json'],
        dir,
        { stdin: items },
      );
      expect(result.code, result.err).toBe(0);
      expect(JSON.parse(result.out).items).toHaveLength(2);
    }
    expectOneLine(
      await runCli(['run', 'cv.jsonld', '--nodes', NODES, '--no-store', '--input', '@-'], dir, {
        stdin: '{\n"a": }',
      }),
      1,
      /^switchyard: <stdin> is not JSON at 2:6: a value is expected .*; give an object or an array of objects \(E_INPUT\)$/,
    );
  });

  it('--policy - reads the policy, checked and named <stdin>', async () => {
    const policy = JSON.stringify({ run: { deadlineMs: 60000 }, defaults: { deadlineMs: 1000 } });
    const result = await runCli(['inspect', 'cv.jsonld', '--policy', '-'], dir, { stdin: policy });
    expect(result.code, result.err).toBe(0);
    expect(result.out).toMatch(/^Worst-case time per item with <stdin>: /m);
    const typo = JSON.stringify({ placements: { compse: { deadlineMs: 5 } } });
    const refused = await runCli(['inspect', 'cv.jsonld', '--policy', '-'], dir, { stdin: typo });
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^switchyard: <stdin>:1:\d+ error E_POLICY_UNKNOWN_KEY .*compose/);
  });

  it('render --trace - reads the trace that run --events wrote', async () => {
    const run = await runCli(['run', 'cv.jsonld', '--nodes', NODES, '--no-store', '--events', '-'], dir);
    expect(run.code, run.err).toBe(0);
    const traced = await runCli(['render', 'cv.jsonld', '--trace', '-', '-o', '-', '--format', 'mmd'], dir, {
      stdin: run.out,
    });
    const plain = await runCli(['render', 'cv.jsonld', '-o', '-', '--format', 'mmd'], dir);
    expect(traced.code, traced.err).toBe(0);
    expect(traced.out).not.toBe(plain.out);
    expect(traced.out).toMatch(/linkStyle/);
  });

  it('standard input is read once: naming it twice is a usage error', async () => {
    const cases = [
      ['run', '-', '--nodes', NODES, '--input', '@-'],
      ['run', 'cv.jsonld', '--nodes', NODES, '--input', '@-', '--policy', '-'],
      ['run', 'cv.jsonld', '--nodes', NODES, '--input', '-', '--policy', '-'],
      ['inspect', '-', '--policy', '-'],
      ['render', '-', '--trace', '-', '-o', 'x.mmd'],
    ];
    for (const args of cases) {
      expectOneLine(
        await runCli(args, dir, { stdin: text }),
        2,
        /^switchyard: standard input can be read once, but .* and .* both name it — put all but one of them in files \(E_USAGE\)$/,
      );
    }
  });
});

describe('- writes standard output', () => {
  it('export -o - (and --out -) writes the document to stdout, --json wraps it', async () => {
    const plain = await runCli(['export', 'cv.jsonld', '--format', 'nquads'], dir);
    for (const flag of ['-o', '--output', '--out']) {
      const result = await runCli(['export', 'cv.jsonld', '--format', 'nquads', flag, '-'], dir);
      expect(result.code, result.err).toBe(0);
      expect(result.out).toBe(plain.out);
    }
    const json = JSON.parse((await runCli(['export', '-', '-o', '-', '--json'], dir, { stdin: text })).out);
    expect(json).toMatchObject({ id: 'urn:switchyard:dag:compose-validate', format: 'compact' });
    expect(json.document['@id']).toBe('urn:switchyard:dag:compose-validate');
  });

  it('render -o - writes Mermaid text or SVG to stdout, never a "wrote" line', async () => {
    const mmd = await runCli(['render', 'cv.jsonld', '-o', '-', '--format', 'mmd'], dir);
    expect(mmd.code, mmd.err).toBe(0);
    expect(mmd.out).toMatch(/^%%\{init/);
    expect(mmd.out).not.toMatch(/wrote/);
    expect(mmd.out).toBe(
      await (async () => {
        await runCli(['render', 'cv.jsonld', '-o', 'same.mmd'], dir);
        return readFile(join(dir, 'same.mmd'), 'utf8');
      })(),
    );
  });

  it('render -o - --format png refuses a terminal in one line, before any rendering', async () => {
    expectOneLine(
      await runCli(['render', 'cv.jsonld', '-o', '-', '--format', 'png'], dir, { isTTY: true }),
      2,
      /^switchyard: -o - --format png would write image bytes to this terminal — redirect standard output .* \(E_USAGE\)$/,
    );
  });

  it('render -o - --format png writes the PNG bytes to a pipe', { timeout: 60_000 }, async () => {
    const result = await runCliBytes(['render', 'cv.jsonld', '-o', '-', '--format', 'png'], dir);
    expect(result.code, result.err).toBe(0);
    expect([...result.bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  });

  it('run --events - writes JSON lines only to stdout; the summary goes to stderr', async () => {
    const result = await runCli(['run', 'cv.jsonld', '--nodes', NODES, '--no-store', '--events', '-'], dir);
    expect(result.code, result.err).toBe(0);
    const lines = result.out.trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l).type)).toContain('run.end');
    expect(result.err).toMatch(/^run .*: completed/m);
    expectOneLine(
      await runCli(['run', 'cv.jsonld', '--nodes', NODES, '--no-store', '--events', '-', '--json'], dir),
      2,
      /^switchyard: --events - and --json would both write standard output .* \(E_USAGE\)$/,
    );
  });
});

describe('flags that cannot stand for a stream refuse -', () => {
  it('switchyard: --nodes, --store, --out-dir, --dags and --chromium', async () => {
    const cases: [string[], string][] = [
      [['run', 'cv.jsonld', '--nodes', '-'], '--nodes'],
      [['validate', 'cv.jsonld', '--nodes', '-'], '--nodes'],
      [['worker', '--redis', 'redis://127.0.0.1:6379', '--nodes', '-'], '--nodes'],
      [['run', 'cv.jsonld', '--nodes', NODES, '--store', '-'], '--store'],
      [['runs', '--store', '-'], '--store'],
      [['runs', 'show', 'x', '--store', '-'], '--store'],
      [['render', 'cv.jsonld', '--out-dir', '-'], '--out-dir'],
      [['render', 'cv.jsonld', '-o', 'x.svg', '--chromium', '-'], '--chromium'],
      [['ui', '--dags', '-'], '--dags'],
    ];
    for (const [args, flag] of cases) {
      expectOneLine(
        await runCli(args, dir),
        2,
        new RegExp(`^switchyard: ${flag} takes .*, not - \\(standard input or output\\) — .* \\(E_USAGE\\)$`),
      );
    }
  });

  it('archivist: --events, --render, --catalog and --store', async () => {
    for (const flag of ['--events', '--render', '--catalog', '--store']) {
      const result = await runMain(['ask', flag, '-', 'books by George Orwell'], { cwd: dir });
      expect(result.code, result.err).toBe(2);
      expect(result.err).toMatch(
        new RegExp(`^archivist: ${flag} takes .*, not - \\(standard input or output\\)`),
      );
      expect(result.out).toBe('');
    }
  });
});

/** Runs the program from the sources as a real process, with `input` piped to it. */
function piped(args: readonly string[], input: string): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...SWITCHYARD, ...args], { cwd: dir });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, out, err }));
    child.stdin.end(input);
  });
}

describe('as a real process', () => {
  it('hash - and export -o - read a real pipe and write stdout', { timeout: 60_000 }, async () => {
    const hash = await piped(['hash', '-'], text);
    expect(hash).toMatchObject({ code: 0, err: '' });
    expect(hash.out).toMatch(/^[0-9a-f]{64} {2}urn:switchyard:dag:compose-validate\n$/);
    const exported = await piped(['export', '-', '--format', 'nquads', '-o', '-'], text);
    expect(exported.code, exported.err).toBe(0);
    expect(exported.out).toMatch(/^<urn:switchyard:dag:compose-validate> /);
  });

  it('a document written to a file named ./- is still a file', async () => {
    await writeFile(join(dir, 'odd'), text);
    const result = await runCli(['export', 'odd', '-o', './-'], dir);
    expect(result.code, result.err).toBe(0);
    expect(existsSync(join(dir, '-'))).toBe(true);
    await rm(join(dir, '-'));
  });
});
