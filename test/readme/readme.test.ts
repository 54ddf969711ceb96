/**
 * The README's shell transcripts are what the programs print. Every fenced block of README.md that starts
 * with a `$ ` line is run, command by command, from a folder that stands for the repository root (see
 * sandbox.ts), through the compiled programs as the README runs them (`npm run -s switchyard -- …`, or
 * `switchyard …` as after `npm link`), so the build comes first. Each command's output is compared with
 * the lines under it. What a transcript may loosen (a `…` line for any lines, run ids, wall-clock times)
 * is set out in match.ts; hashes, counts and durations are compared as written. A block needing what a
 * test cannot give (a browser, a server that runs until stopped) is skipped only under a visible
 * `<!-- test/readme skips this block: why -->` line, and is listed as skipped.
 *
 * A failure shows the diff between the README and the output (written as the README would write it) and
 * the command that writes the real outputs into README.md.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CheckedCommand, checkTranscript } from './check.ts';
import { ROOT } from './sandbox.ts';
import { readTranscripts, type Transcript } from './transcripts.ts';

const run = promisify(execFile);
const { transcripts, strayMarkers } = readTranscripts(readFileSync(join(ROOT, 'README.md'), 'utf8'));

const REGENERATE =
  'npm run build && node --import tsx test/readme/regenerate.ts (then review `git diff README.md`)';

beforeAll(async () => {
  await run('npm', ['run', '-s', 'build'], { cwd: ROOT });
}, 120_000);

/** The test's name for a transcript: where it is and what it runs first. */
function named(transcript: Transcript): string {
  const [first, ...more] = transcript.commands;
  const command = ((first?.command ?? '').split('\n')[0] ?? '').replace(/\s*\\$/u, ' …');
  const rest = more.length === 0 ? '' : ` (and ${more.length} more)`;
  return `README.md:${first?.line ?? transcript.open + 2} $ ${command}${rest}`;
}

/** What a failure says: the command, how it ran, and how to write the real outputs into the README. */
function explained(checked: CheckedCommand): string {
  const clash = checked.idClash === undefined ? '' : `\nrun ids do not pair up: ${checked.idClash}`;
  return [
    `README.md:${checked.shown.line}: the output shown under \`$ ${checked.shown.command}\` is not what it prints`,
    '(- the README, + the output as the README would write it)',
    `it ran, from a copy of the repository root: ${checked.ran}`,
    `to write every real output into README.md: ${REGENERATE}${clash}`,
  ].join('\n');
}

describe('README.md transcripts', () => {
  it('has transcripts, the compose/validate run with its DAG hash among those checked', () => {
    const checked = transcripts.filter((t) => t.skip === undefined).flatMap((t) => t.commands);
    const hashed = checked.find(
      (c) =>
        c.command.includes('run dags/compose-validate.jsonld') &&
        c.output.some((line) => /\(([0-9a-f]{12})\)$/u.test(line)),
    );
    expect(hashed, 'the run example with its hash is checked').toBeDefined();
  });

  it('skips a block only under a marker that stands right above it', () => {
    expect(strayMarkers, 'lines of README.md with a skip marker above no transcript').toEqual([]);
  });

  for (const transcript of transcripts) {
    if (transcript.skip !== undefined) {
      it.skip(`${named(transcript)} — skipped: ${transcript.skip}`, () => undefined);
      continue;
    }
    it(named(transcript), { timeout: 180_000 }, async () => {
      for (const checked of await checkTranscript(transcript)) {
        expect.soft(checked.written.join('\n'), explained(checked)).toBe(checked.shown.output.join('\n'));
        expect.soft(checked.idClash, explained(checked)).toBeUndefined();
      }
    });
  }
});
