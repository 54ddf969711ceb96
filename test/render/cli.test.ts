import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.ts';
import { composeValidateTrace, toJsonl } from './trace-fixture.ts';

const ROOT = join(import.meta.dirname, '../..');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-render-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs `switchyard render …` through the CLI's own entry point, output lines joined without a final newline. */
async function render(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const result = await runCli(['render', ...args], ROOT);
  return { code: result.code, out: result.out.trimEnd(), err: result.err.trimEnd() };
}

describe('switchyard render', () => {
  it('writes Mermaid text for -o x.mmd', async () => {
    const output = join(dir, 'cv.mmd');
    const result = await render('dags/compose-validate.jsonld', '-o', output);
    expect(result).toMatchObject({ code: 0, err: '' });
    expect(result.out).toMatch(/^wrote .*cv\.mmd$/);
    expect(await readFile(output, 'utf8')).toBe(
      await readFile(join(ROOT, 'test/golden/compose-validate.mmd'), 'utf8'),
    );
  });

  it('draws a trace over the PNG', async () => {
    const trace = join(dir, 'run.jsonl');
    await writeFile(trace, toJsonl(composeValidateTrace()));
    const output = join(dir, 'cv-trace.png');
    const result = await render('dags/compose-validate.jsonld', '-o', output, '--trace', trace);
    expect(result.code).toBe(0);
    const png = PNG.sync.read(await readFile(output));
    expect(png.width).toBeGreaterThan(200);
    const mmd = join(dir, 'cv-trace.mmd');
    await render('dags/compose-validate.jsonld', '-o', mmd, '--trace', trace);
    expect(await readFile(mmd, 'utf8')).toContain('×2 · waited 300 ms');
  });

  it('renders a folder with one browser, one line per file', async () => {
    const out = join(dir, 'all');
    const result = await render(
      'dags/checkout.jsonld',
      'dags/review.jsonld',
      '--out-dir',
      out,
      '--format',
      'svg',
    );
    expect(result.code).toBe(0);
    expect(result.out.split('\n')).toHaveLength(2);
    expect((await stat(join(out, 'review.svg'))).size).toBeGreaterThan(1000);
  });

  it('rejects an unknown extension in one line', async () => {
    const result = await render('dags/checkout.jsonld', '-o', join(dir, 'x.jpg'));
    expect(result.code).toBe(2);
    expect(result.err).toMatch(
      /^switchyard: cannot tell the format of .*x\.jpg: end the path with \.svg, \.png or \.mmd \(E_USAGE\)$/,
    );
  });

  it('prints the problems of an invalid DAG and writes nothing', async () => {
    const bad = join(dir, 'bad.jsonld');
    const text = (await readFile(join(ROOT, 'dags/checkout.jsonld'), 'utf8')).replace(
      '"to": "paid"',
      '"to": "nowhere"',
    );
    await writeFile(bad, text);
    const output = join(dir, 'bad.svg');
    const result = await render(bad, '-o', output);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/E_DANGLING_ROUTE/);
    await expect(stat(output)).rejects.toThrow();
  });

  it('reports a bad trace line with its file and line', async () => {
    const trace = join(dir, 'bad.jsonl');
    await writeFile(trace, '{"type":"run.start"}\nnot json\n');
    const result = await render('dags/checkout.jsonld', '-o', join(dir, 'c.mmd'), '--trace', trace);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/bad\.jsonl:2: not a JSON event/);
  });
});
