/**
 * The rules test/readme holds the README's transcripts to: what a transcript may loosen (elisions, run ids,
 * wall-clock times) and what it may not (hashes, counts, durations, any other character).
 */
import { describe, expect, it } from 'vitest';
import { compareOutput, type Ids, withRealIds } from './match.ts';
import { readTranscripts } from './transcripts.ts';

const A = '9a27cec4-1f0e-4c4e-9d7a-8a1c2f6b0e11';
const B = 'ce6c3749-3ae5-416b-9d78-17f64fe2b1a8';
const REAL_A = '36baf8ef-61f8-4bc5-9a52-8f9bda64fc3a';
const REAL_B = 'f4947158-1797-4649-9a3a-93ba483e38c2';

const compare = (shown: string[], real: string[], ids: Ids = new Map()) => compareOutput(shown, real, ids);

describe('comparing a command output with a transcript', () => {
  it('holds every character, a hash included', () => {
    const shown = ['run: completed (53715e225000)', 'time: 2.68 s (virtual clock)'];
    expect(compare(shown, [...shown]).same).toBe(true);
    const drifted = compare(shown, ['run: completed (18ee1015e42f)', 'time: 2.68 s (virtual clock)']);
    expect(drifted.same).toBe(false);
    expect(drifted.written).toEqual(['run: completed (18ee1015e42f)', 'time: 2.68 s (virtual clock)']);
    expect(compare(['time: 2.68 s'], ['time: 2.69 s']).same).toBe(false);
  });

  it('lets a line of … stand for any lines, none included, and keeps it in the written output', () => {
    const shown = ['first', '…', 'last'];
    expect(compare(shown, ['first', 'last']).same).toBe(true);
    expect(compare(shown, ['first', 'a', 'b', 'last']).same).toBe(true);
    expect(compare(['  …'], []).same).toBe(true);
    const changed = compare(shown, ['first', 'a', 'changed last']);
    expect(changed.same).toBe(false);
    expect(changed.written).toEqual(['first', '…', 'changed last']);
    // Only a whole line elides: a line that ends in … is compared as written.
    expect(compare(['HTTP 429 Too Many …'], ['HTTP 429 Too Many Requests']).same).toBe(false);
  });

  it('lets a run id stand for any run id, the same one wherever it is written', () => {
    const ids: Ids = new Map();
    const shown = [`run ${A}: completed`, `recorded as ${A}`];
    expect(compare(shown, [`run ${REAL_A}: completed`, `recorded as ${REAL_A}`], ids).same).toBe(true);
    expect(ids.get(A)).toBe(REAL_A);
    expect(withRealIds(`switchyard runs show ${A}`, ids)).toBe(`switchyard runs show ${REAL_A}`);
    const twice = compare(shown, [`run ${REAL_A}: completed`, `recorded as ${REAL_B}`], new Map());
    expect(twice.same).toBe(false);
    expect(twice.idClash).toContain(A);
    const oneForTwo = compare([`${A}`, `${B}`], [REAL_A, REAL_A], new Map());
    expect(oneForTwo.same).toBe(false);
    expect(oneForTwo.idClash).toContain(REAL_A);
  });

  it('lets an answer token stand for any, the same one wherever it is written, and runs commands with the real one', () => {
    const ids: Ids = new Map();
    const token = 'aw-000000000000000000000001';
    const real = 'aw-5c1f0e9d8b7a69584736251a';
    expect(compare([`token ${token}`], [`token ${real}`], ids).same).toBe(true);
    expect(withRealIds(`switchyard answer ${A} ${token} approved`, new Map([...ids, [A, REAL_A]]))).toBe(
      `switchyard answer ${REAL_A} ${real} approved`,
    );
    expect(
      compare([`token ${token}`, token], [`token ${real}`, 'aw-ffffffffffffffffffffffff'], new Map()).same,
    ).toBe(false);
  });

  it('lets a wall-clock time stand for any, and ignores spaces at line ends', () => {
    const shown = ['created  2026-12-01T09:30:00.969Z'];
    expect(compare(shown, ['created  2027-01-02T03:04:05.678Z  ']).same).toBe(true);
    expect(compare(shown, ['created  yesterday']).same).toBe(false);
  });

  it('writes a changed line with the ids the transcript gave that run', () => {
    const ids: Ids = new Map();
    const changed = compare([`${A}  completed  180 ms`], [`${REAL_A}  completed  183 ms`], ids);
    expect(changed.same).toBe(false);
    expect(changed.written).toEqual([`${A}  completed  183 ms`]);
    expect(ids.get(A)).toBe(REAL_A);
  });
});

describe('reading the transcripts of a Markdown text', () => {
  const text = [
    '```sh',
    'npm test',
    '```',
    '```',
    '$ one \\',
    '    --flag',
    'out 1',
    '',
    '$ two',
    '```',
    '<!-- test/readme skips this block: it needs a browser -->',
    '',
    '```',
    '$ three',
    '```',
    '<!-- test/readme skips this block: nothing below -->',
    'prose',
  ].join('\n');

  it('finds the commands, their outputs and the skipped blocks', () => {
    const { transcripts, strayMarkers } = readTranscripts(text);
    expect(transcripts.map((t) => t.commands.map((c) => [c.line, c.command, c.output, c.gap]))).toEqual([
      [
        [5, 'one \\\n    --flag', ['out 1'], 1],
        [9, 'two', [], 0],
      ],
      [[14, 'three', [], 0]],
    ]);
    expect(transcripts.map((t) => t.skip)).toEqual([undefined, 'it needs a browser']);
    expect(strayMarkers).toEqual([16]);
  });
});
