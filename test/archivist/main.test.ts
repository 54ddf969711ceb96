import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalise } from '../../nodes/archivist/catalog.ts';
import { REFUSAL } from '../../nodes/archivist/refuse.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { CATALOG_TITLES, quotedTitles, runMain } from './run-main.ts';

function expectOnlyCatalogTitles(answer: string): void {
  const titles = quotedTitles(answer);
  expect(titles.length).toBeGreaterThan(0);
  for (const title of titles) expect(CATALOG_TITLES, title).toContain(normalise(title));
}

describe('archivist ask, offline, end to end', () => {
  it.each([
    ['find', 'books by George Orwell', 'Animal Farm'],
    ['recommend', 'recommend something like Dune', 'The Left Hand of Darkness'],
    ['describe', 'what is The Left Hand of Darkness about?', 'The Left Hand of Darkness'],
  ])('%s: %s', async (intent, question, title) => {
    const text = await runMain(['ask', question]);
    expect(text.code).toBe(0);
    expect(text.err).toBe('');
    expect(text.out).toContain(`"${title}"`);
    expectOnlyCatalogTitles(text.out);
    const json = JSON.parse((await runMain(['ask', '--json', question])).out);
    expect(json).toMatchObject({ intent, source: 'model', status: 'completed', model: 'offline' });
    expect(json.shortlist.map((b: { title: string }) => b.title)).toContain(title);
  });

  it('off-topic: a polite refusal on the declined terminal', async () => {
    const run = await runMain(['ask', '--json', 'What will the weather be in Paris tomorrow?']);
    expect(JSON.parse(run.out)).toMatchObject({ intent: 'off-topic', answer: REFUSAL, terminal: 'declined' });
  });

  it('--trace prints every placement of the path on stderr, the answer alone on stdout', async () => {
    const run = await runMain(['ask', '--trace', 'books by George Orwell']);
    const bare = await runMain(['ask', 'books by George Orwell']);
    expect(run.out).toBe(bare.out);
    for (const step of [
      '→ read',
      '→ classify',
      '→ plan',
      '→ search',
      '→ merge',
      '→ rank',
      '→ answer › compose',
      '→ answer › validate',
      '→ respond',
      '■ answered (completed)',
    ]) {
      expect(run.err).toContain(step);
    }
  });

  it('--trace --json puts the trace into the JSON and nothing on stderr but the run line', async () => {
    const run = await runMain(['ask', '--trace', '--json', 'books by George Orwell']);
    const result = JSON.parse(run.out) as { trace?: string[] };
    expect(result.trace).toContain('→ answer › compose');
    expect(result.trace?.at(-1)).toBe('■ answered (completed)');
    expect(run.err).not.toContain('→ read');
  });

  it('--events writes the event stream as JSON lines', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'archivist-')), 'run.jsonl');
    await runMain(['ask', '--events', file, 'books by George Orwell']);
    const events = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as RunEvent);
    expect(events[0]?.type).toBe('run.start');
    expect(events.at(-1)?.type).toBe('run.end');
    expect(events.some((e) => e.type === 'item.end' && e.dag.endsWith('compose-validate'))).toBe(true);
  });
});

describe('archivist ask --flaky', () => {
  it.each([4, 17, 20])(
    'seed %i: retries and a salvage in the trace, catalog titles only, same output twice',
    async (seed) => {
      const args = [
        'ask',
        '--trace',
        '--flaky',
        '0.5',
        '--seed',
        String(seed),
        'recommend something like Dune',
      ];
      const first = await runMain(args);
      expect(first.code).toBe(0);
      expect(first.err).toContain('↻ retry');
      expect(first.err).toContain('⚑ salvage');
      const answer =
        first.out
          .split('\n')
          .filter((l) => l !== '')
          .at(-1) ?? '';
      expectOnlyCatalogTitles(answer);
      const second = await runMain(args);
      expect(second.out).toBe(first.out);
      const withoutRunId = (err: string) => err.replace(/[0-9a-f-]{36}/g, '<run>');
      expect(withoutRunId(second.err)).toBe(withoutRunId(first.err));
    },
  );

  it('seed 4 waits the Retry-After of a 429, then salvages the classification', async () => {
    const run = await runMain([
      'ask',
      '--trace',
      '--flaky',
      '0.5',
      '--seed',
      '4',
      'recommend something like Dune',
    ]);
    expect(run.err).toContain('after 1000 ms [retry-after]: HTTP 429 Too Many Requests (injected)');
    expect(run.err).toContain('⚑ salvage classify → classify-rules');
  });
});

describe('archivist: bad input is one line and a non-zero exit', () => {
  const cases: [string, string[], Record<string, string>, RegExp][] = [
    ['an empty question', ['ask', '   '], {}, /^archivist: the question is empty/],
    [
      'an unknown --llm',
      ['ask', '--llm', 'gpt9', 'hi'],
      {},
      /^archivist: unknown --llm 'gpt9': use one of offline, openai, ollama \(E_USAGE\)\n$/,
    ],
    ['a missing API key', ['ask', '--llm', 'openai', 'hi'], {}, /^archivist: no API key: set OPENAI_API_KEY/],
    [
      'a bad --flaky',
      ['ask', '--flaky', '2', 'hi'],
      {},
      /^archivist: --flaky must be a rate between 0 and 1/,
    ],
    [
      'a bad --rate-limit',
      ['ask', '--rate-limit', '0.5', 'hi'],
      {},
      /^archivist: --rate-limit must be a whole number of requests per second from 1 to 10000, not '0\.5' \(E_USAGE\)\n$/,
    ],
  ];
  it.each(cases)('%s', async (_name, args, env, message) => {
    const run = await runMain(args, { env });
    expect(run.code).not.toBe(0);
    expect(run.out).toBe('');
    expect(run.err.trim().split('\n')).toHaveLength(1);
    expect(run.err).toMatch(message);
    expect(run.err).not.toMatch(/\n\s+at /);
  });
});

describe('archivist ask: output paths are checked before the run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'archivist-out-'));
  const cases: [string, string[], number, RegExp][] = [
    [
      '--events into a missing folder',
      ['--events', 'missing/run.jsonl'],
      1,
      /^archivist: cannot write missing\/run\.jsonl: its folder does not exist — check that the folder exists and is writable \(E_WRITE\)\n$/,
    ],
    [
      '--render with an unknown extension',
      ['--render', 'x.gif'],
      2,
      /^archivist: cannot tell the format of x\.gif: end the path with \.svg, \.png or \.mmd \(E_USAGE\)\n$/,
    ],
    [
      '--render into a missing folder',
      ['--render', 'missing/x.svg'],
      1,
      /^archivist: cannot write missing\/x\.svg: its folder does not exist — check that the folder exists and is writable \(E_WRITE\)\n$/,
    ],
    ['--events naming a folder', ['--events', '.'], 1, /^archivist: cannot write .*: it is a folder — /],
  ];
  it.each(cases)('%s: one line, no run, nothing written', async (_name, flags, code, message) => {
    const run = await runMain(['ask', ...flags, 'books by George Orwell'], { cwd: dir });
    expect(run.code).toBe(code);
    expect(run.out).toBe('');
    expect(run.err).toMatch(message);
    expect(run.err).not.toMatch(/\n\s+at /);
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });

  it('prints the answer before writing the outputs', async () => {
    const run = await runMain(
      ['ask', '--events', 'run.jsonl', '--render', 'run.mmd', 'books by George Orwell'],
      {
        cwd: dir,
      },
    );
    expect(run).toMatchObject({ code: 0, err: '' });
    expect(run.out).toContain('"Animal Farm"');
    expect(readFileSync(join(dir, 'run.jsonl'), 'utf8')).toContain('"type":"run.end"');
    expect(readFileSync(join(dir, 'run.mmd'), 'utf8')).toContain('flowchart');
  });
});
