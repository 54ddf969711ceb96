/**
 * The `--data` of `switchyard answer`: JSON text, `@file.json`, or `-` for standard input; any JSON value
 * (the await placement decides what it takes).
 */
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { decodeUtf8OrThrow } from '../document/decode-text.ts';
import { SwitchyardError } from '../errors.ts';
import type { CliIO } from './io.ts';
import { fileNotFound, isNotFound, notJson } from './messages.ts';
import { displayPath } from './output.ts';
import { namesStdin, readStdin, STDIN_NAME } from './stdio.ts';

/** The text of a data file, refused with one line when it is missing or no regular file. */
async function dataFile(path: string, cwd: string): Promise<string> {
  const file = resolve(cwd, path);
  const shown = displayPath(file, cwd);
  // Reading a FIFO or a device would wait for ever.
  const found = await stat(file).catch(() => undefined);
  if (found !== undefined && !found.isFile()) {
    throw new SwitchyardError(
      'E_INPUT',
      `data file ${shown} is not a regular file; give a .json file after '@'`,
    );
  }
  try {
    return decodeUtf8OrThrow(await readFile(file), shown, `data file ${shown}`);
  } catch (error) {
    if (isNotFound(error)) throw fileNotFound(shown, "after '@' in --data");
    throw error;
  }
}

/**
 * Parses `--data`: undefined when it is not given; JSON that does not parse is refused with `E_ANSWER`
 * naming where it came from.
 * @example
 * await readAnswerData('{"note":"ship it"}', io) // { note: 'ship it' }
 */
export async function readAnswerData(
  text: string | undefined,
  io: Pick<CliIO, 'cwd' | 'stdin' | 'err'>,
): Promise<unknown> {
  if (text === undefined) return undefined;
  let source = text;
  let where = '--data';
  if (namesStdin(text)) {
    where = STDIN_NAME;
    source = await readStdin(
      io,
      'the answer data',
      `echo '{"note":"ok"}' | switchyard answer <run> <token> approved --data -`,
    );
  } else if (text.startsWith('@')) {
    where = displayPath(text.slice(1), io.cwd);
    source = await dataFile(text.slice(1), io.cwd);
  }
  try {
    return JSON.parse(source);
  } catch {
    throw notJson('E_ANSWER', where, source, 'give JSON: an object, @file.json or - for standard input');
  }
}
