import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { runMain } from './run-main.ts';

const dir = await mkdtemp(join(tmpdir(), 'archivist-render-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('archivist ask --render', () => {
  it('draws the ask DAG with the run path over it, the compose/validate loop as a subgraph', async () => {
    const file = join(dir, 'run.svg');
    const run = await runMain([
      'ask',
      '--flaky',
      '0.5',
      '--seed',
      '4',
      '--render',
      file,
      'recommend something like Dune',
    ]);
    expect(run.code, run.err).toBe(0);
    const svg = await readFile(file, 'utf8');
    expect(XMLValidator.validate(svg)).toBe(true);
    // Labels are split into one <tspan> per word: compare the text with the markup taken out.
    const text = svg.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');
    expect(text.includes('Classify intent')).toBe(true);
    expect(text.includes('Compose draft')).toBe(true);
    expect(/classify exhausted · ×1/.test(text)).toBe(true);
  });

  it('writes Mermaid text for a .mmd path and refuses an unknown extension in one line', async () => {
    const mmd = join(dir, 'run.mmd');
    expect((await runMain(['ask', '--render', mmd, 'books by George Orwell'])).code).toBe(0);
    expect(await readFile(mmd, 'utf8')).toMatch(/^%%\{init: /);
    const bad = await runMain(['ask', '--render', join(dir, 'run.gif'), 'books by George Orwell']);
    expect(bad.code).not.toBe(0);
    expect(bad.err).toMatch(
      /cannot tell the format of .*run\.gif: end the path with \.svg, \.png or \.mmd \(E_USAGE\)\n$/,
    );
  });
});
