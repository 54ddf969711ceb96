/**
 * Every text the command line reads is strict UTF-8, wherever it comes from: a document, a policy, an
 * `--input @file`, a trace, or standard input for `-`. A file whose bytes are not UTF-8 would otherwise be
 * read with U+FFFD in place of the bad bytes, so two different files would read alike.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CV = join(ROOT, 'dags/compose-validate.jsonld');
const NODES = join(ROOT, 'test/fixtures/nodes/compose-validate.ts');

/** `text` with the bytes `bad` put in place of its first `@@`. */
function withBadBytes(text: string, bad: readonly number[]): Buffer {
  const [before, after] = text.split('@@') as [string, string];
  return Buffer.concat([Buffer.from(before), Buffer.from(bad), Buffer.from(after)]);
}

let dir: string;
let document: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-encoding-'));
  document = await readFile(CV, 'utf8');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('bytes that are not UTF-8 are refused in one line with where they are', () => {
  // A stray continuation byte, an overlong '/', a surrogate, a sequence cut short.
  const sequences: readonly (readonly number[])[] = [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82]];

  it.each(sequences)('a document on standard input (%j)', async (...bad) => {
    const stdin = withBadBytes(document.replace('"name": "', '"name": "@@'), bad);
    const result = await runCli(['validate', '-'], dir, { stdin });
    expect(result.code, result.err).toBe(1);
    expect(result.err).toMatch(/<stdin> is not valid UTF-8 at \d+:\d+.*E_ENCODING/);
    expect(result.err).not.toMatch(/\n\s+at /);
  });

  it.each(sequences)('--input @file and --input @- (%j)', async (...bad) => {
    const input = withBadBytes('{"topic": "caf@@"}', bad);
    await writeFile(join(dir, 'input.json'), input);
    for (const [flag, stdin] of [
      ['@input.json', undefined],
      ['@-', input],
    ] as const) {
      const result = await runCli(
        ['run', CV, '--nodes', NODES, '--no-store', '--virtual-time', '--input', flag],
        dir,
        stdin === undefined ? {} : { stdin },
      );
      expect(result.code, result.err).not.toBe(0);
      expect(result.err.trimEnd().split('\n'), result.err).toHaveLength(1);
      expect(result.err).toMatch(/line 1, column 1[0-9]|1:1[0-9]/);
      expect(result.err).toContain('E_ENCODING');
    }
  });

  it('a policy on standard input and a trace file', async () => {
    const policy = withBadBytes('{"runDeadlineMs": 1000, "x@@": 1}', [0xff]);
    const piped = await runCli(['inspect', CV, '--policy', '-'], dir, { stdin: policy });
    expect(piped.code, piped.err).toBe(1);
    expect(piped.err).toContain('E_ENCODING');

    await writeFile(join(dir, 'run.jsonl'), withBadBytes('{"type":"run.start@@"}\n', [0xff]));
    const traced = await runCli(['render', CV, '--trace', 'run.jsonl', '-o', 'out.mmd'], dir);
    expect(traced.code, traced.err).not.toBe(0);
    expect(traced.err).toContain('E_ENCODING');
  });
});
