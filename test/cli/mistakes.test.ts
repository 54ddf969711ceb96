import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeValidateTrace, toJsonl } from '../render/trace-fixture.ts';
import { runCli } from './run-cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NODES = join(ROOT, 'test/fixtures/nodes/compose-validate.ts');
const CV = join(ROOT, 'dags/compose-validate.jsonld');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-mistakes-'));
  await copyFile(CV, join(dir, 'cv.jsonld'));
  await writeFile(join(dir, 'a-file'), 'not a folder\n');
  await mkdir(join(dir, 'many'));
  await mkdir(join(dir, 'folder.mmd'));
  await copyFile(CV, join(dir, 'many/cv.jsonld'));
  await copyFile(join(ROOT, 'dags/checkout.jsonld'), join(dir, 'many/checkout.jsonld'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A user mistake: exit non-zero, one line on stderr that matches `message`, no stack trace, no stdout. */
function expectOneLine(result: { code: number; out: string; err: string }, message: RegExp): void {
  expect(result.code, result.err).not.toBe(0);
  const lines = result.err.trimEnd().split('\n');
  expect(lines, result.err).toHaveLength(1);
  expect(result.err).not.toMatch(/^\s+at /m);
  expect(lines[0]).toMatch(message);
  expect(result.out).toBe('');
}

describe('missing documents', () => {
  it('hash of a missing file in / is one line, with no scan of / below its top level', async () => {
    const result = await runCli(['hash', '/switchyard-no-such-dag.jsonld'], ROOT);
    expectOneLine(
      result,
      /^switchyard: no such file: \/switchyard-no-such-dag\.jsonld — check the path \(E_FILE_NOT_FOUND\)$/,
    );
  });

  it('names a missing document relative to the working folder', async () => {
    const result = await runCli(['run', 'nope.jsonld', '--nodes', NODES], dir);
    expectOneLine(result, /^switchyard: no such file: nope\.jsonld — check the path \(E_FILE_NOT_FOUND\)$/);
  });
});

describe('run', () => {
  it('refuses --events into a missing folder before the run, writing nothing', async () => {
    const events = join(dir, 'missing/run.jsonl');
    const result = await runCli(['run', 'cv.jsonld', '--nodes', NODES, '--events', events], dir);
    expectOneLine(
      result,
      /^switchyard: cannot write missing\/run\.jsonl: its folder does not exist — check that the folder exists and is writable \(E_WRITE\)$/,
    );
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });

  it('refuses --events naming a folder', async () => {
    const result = await runCli(['run', 'cv.jsonld', '--nodes', NODES, '--events', 'many'], dir);
    expectOneLine(result, /^switchyard: cannot write many: it is a folder — check that/);
  });

  it('creates no events file when the input is wrong', async () => {
    const events = join(dir, 'never.jsonl');
    const result = await runCli(
      ['run', 'cv.jsonld', '--nodes', NODES, '--input', '[]', '--events', events],
      dir,
    );
    expectOneLine(
      result,
      /^switchyard: --input has no items: give an object \(one item\) or a non-empty array of objects \(E_INPUT\)$/,
    );
    expect(existsSync(events)).toBe(false);
  });

  it('names a missing policy file relative to the working folder', async () => {
    const result = await runCli(['run', 'cv.jsonld', '--nodes', NODES, '--policy', 'nope.policy.json'], dir);
    expectOneLine(
      result,
      /^switchyard: no such file: nope\.policy\.json — check the path given to --policy \(E_FILE_NOT_FOUND\)$/,
    );
  });

  it('names an invalid document relative to the working folder', async () => {
    const bad = (await readFile(CV, 'utf8')).replace('"to": "validate"', '"to": "nowhere"');
    await writeFile(join(dir, 'bad.jsonld'), bad);
    const result = await runCli(['run', 'bad.jsonld', '--nodes', NODES], dir);
    expect(result.code).toBe(1);
    expect(result.err.split('\n')[0]).toBe(
      'switchyard: bad.jsonld is not a valid DAG (E_DANGLING_ROUTE, E_UNREACHABLE):',
    );
    expect(result.err).not.toContain(dir);
  });

  it('runs a TypeScript node module that lies outside any "type": "module" package', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'switchyard-esm-'));
    try {
      const source = (await readFile(NODES, 'utf8')).replace(
        '../../../src/runtime/node.ts',
        join(ROOT, 'src/runtime/node.ts'),
      );
      await writeFile(join(outside, 'nodes.ts'), source);
      const result = await runCli(
        ['run', 'cv.jsonld', '--nodes', join(outside, 'nodes.ts'), '--input', '{"topic":"owls"}'],
        dir,
      );
      expect(result.err).toBe('');
      expect(result.code).toBe(0);
      expect(result.out).toContain('done (completed): 1 item');
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('says in --help that virtual time is for nodes that do no real I/O', async () => {
    const result = await runCli(['run', '--help'], ROOT);
    expect(result.out.replace(/\s+/g, ' ')).toContain('for nodes that do no real I/O');
  });
});

describe('render', () => {
  it('refuses -o for a folder of several documents before writing anything', async () => {
    const output = join(dir, 'many.mmd');
    const result = await runCli(['render', 'many', '-o', output], dir);
    expectOneLine(
      result,
      /^switchyard: -o takes one document, but many hold 2: use --out-dir <dir> for several \(E_USAGE\)$/,
    );
    expect(existsSync(output)).toBe(false);
  });

  it('takes -o for a folder holding one document', async () => {
    await mkdir(join(dir, 'one'), { recursive: true });
    await copyFile(CV, join(dir, 'one/cv.jsonld'));
    const result = await runCli(['render', 'one', '-o', 'one.mmd'], dir);
    expect(result).toMatchObject({ code: 0, err: '', out: 'wrote one.mmd\n' });
  });

  it.each([
    [
      'a file as its folder',
      'a-file/x.mmd',
      /^switchyard: cannot write a-file\/x\.mmd: a part of its folder path is a file/,
    ],
    [
      'a missing folder',
      'missing/x.mmd',
      /^switchyard: cannot write missing\/x\.mmd: its folder does not exist/,
    ],
    ['a folder as the file', 'folder.mmd', /^switchyard: cannot write folder\.mmd: it is a folder/],
  ])('refuses -o into %s in one line', async (_what, output, reason) => {
    const result = await runCli(['render', 'cv.jsonld', '-o', output], dir);
    expectOneLine(result, reason);
    expect(result.err).toMatch(/ — check that the folder exists and is writable \(E_WRITE\)\n$/);
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });

  it('refuses --out-dir that is a file, writing nothing', async () => {
    const result = await runCli(['render', 'cv.jsonld', '--out-dir', 'a-file', '--format', 'mmd'], dir);
    expectOneLine(result, /^switchyard: cannot write a-file: /);
    expect(await readFile(join(dir, 'a-file'), 'utf8')).toBe('not a folder\n');
  });

  it('prints an absolute path when the output lies outside the working folder', async () => {
    const output = join(dir, 'outside.mmd');
    const result = await runCli(['render', CV, '-o', output], ROOT);
    expect(result).toMatchObject({ code: 0, err: '', out: `wrote ${output}\n` });
  });

  it('warns when the trace has no events of the drawn DAG, and still draws it', async () => {
    const trace = join(dir, 'cv-run.jsonl');
    await writeFile(trace, toJsonl(composeValidateTrace()));
    const result = await runCli(
      ['render', 'many/checkout.jsonld', '-o', 'co.mmd', '--trace', 'cv-run.jsonl'],
      dir,
    );
    expect(result.code).toBe(0);
    expect(result.err).toBe('warning: cv-run.jsonl has no events of urn:switchyard:dag:checkout\n');
    expect(result.out).toBe('wrote co.mmd\n');
    expect(existsSync(join(dir, 'co.mmd'))).toBe(true);
    const same = await runCli(['render', 'cv.jsonld', '-o', 'cv.mmd', '--trace', 'cv-run.jsonl'], dir);
    expect(same).toMatchObject({ code: 0, err: '' });
  });
});

describe('export', () => {
  it('writes -o relative to the working folder and says so', async () => {
    const result = await runCli(['export', 'cv.jsonld', '--format', 'nquads', '-o', 'cv.nq'], dir);
    expect(result).toMatchObject({ code: 0, err: '', out: 'wrote cv.nq\n' });
    expect(await readFile(join(dir, 'cv.nq'), 'utf8')).toContain('urn:switchyard:dag:compose-validate');
  });

  it('refuses -o naming a folder in one line', async () => {
    const result = await runCli(['export', 'cv.jsonld', '-o', tmpdir()], dir);
    expectOneLine(result, /^switchyard: cannot write .*: it is a folder — check that the folder exists/);
  });

  it('refuses -o into a missing folder in one line, writing nothing', async () => {
    const result = await runCli(['export', 'cv.jsonld', '-o', 'missing/cv.jsonld'], dir);
    expectOneLine(result, /^switchyard: cannot write missing\/cv\.jsonld: its folder does not exist/);
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });
});
