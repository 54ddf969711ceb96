import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readAnswerData } from '../../src/cli/answer-data.ts';
import { isSwitchyardError } from '../../src/errors.ts';

/** The io `readAnswerData` reads: `stdin` holds `text`. */
function ioWith(text: string) {
  return { cwd: process.cwd(), stdin: Readable.from([Buffer.from(text)]) as never, err: () => undefined };
}

describe('answer --data', () => {
  it('reads standard input for - and for @-, as run --input does', async () => {
    for (const flag of ['-', '@-']) {
      expect(await readAnswerData(flag, ioWith('{"note":"fine"}')), flag).toEqual({ note: 'fine' });
      const bad = await readAnswerData(flag, ioWith('{nope')).catch((e: unknown) => e);
      expect(isSwitchyardError(bad) && bad.code, flag).toBe('E_ANSWER');
      expect((bad as Error).message, flag).toMatch(/^<stdin> is not JSON at 1:2/);
    }
  });
});
