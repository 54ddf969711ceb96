/**
 * `npm run build && node --import tsx test/readme/regenerate.ts`: runs every transcript of README.md that
 * is not skipped, as test/readme/readme.test.ts does, and writes what each command prints in place of the
 * output shown. Lines that still match are kept as written (their elisions, run ids and times); the rest
 * are the real output. Review the change with `git diff README.md`: an elision may need moving.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkTranscript, rewrittenBlock } from './check.ts';
import { ROOT } from './sandbox.ts';
import { readTranscripts } from './transcripts.ts';

const README = join(ROOT, 'README.md');

async function main(): Promise<number> {
  const text = await readFile(README, 'utf8');
  const lines = text.split('\n');
  const { transcripts } = readTranscripts(text);
  let changed = 0;
  // From the last block up, so that the line numbers of the blocks above stay right.
  for (const transcript of [...transcripts].reverse()) {
    if (transcript.skip !== undefined) continue;
    const checked = await checkTranscript(transcript);
    for (const command of checked) {
      if (command.same) continue;
      changed++;
      process.stdout.write(`README.md:${command.shown.line} $ ${command.shown.command.split('\n')[0]}\n`);
      if (command.idClash !== undefined) process.stdout.write(`  run ids: ${command.idClash}\n`);
    }
    lines.splice(transcript.open + 1, transcript.close - transcript.open - 1, ...rewrittenBlock(checked));
  }
  await writeFile(README, lines.join('\n'));
  process.stdout.write(
    changed === 0 ? 'README.md: every transcript matches\n' : `README.md: ${changed} outputs rewritten\n`,
  );
  return 0;
}

process.exitCode = await main();
