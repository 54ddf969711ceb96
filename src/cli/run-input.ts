import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { decodeUtf8OrThrow } from '../document/decode-text.ts';
import { SwitchyardError } from '../errors.ts';
import { admitItemData } from '../runtime/item-data.ts';
import type { CliIO } from './io.ts';
import { fileNotFound, isNotFound, notJson } from './messages.ts';
import { displayPath } from './output.ts';
import { namesStdin, readStdin, STDIN_NAME } from './stdio.ts';

/** The text of `--input @<file>`: a regular file's. */
async function inputFile(path: string, io: Pick<CliIO, 'cwd'>): Promise<string> {
  const file = resolve(io.cwd, path);
  const shown = displayPath(file, io.cwd);
  // Reading a FIFO or a device would wait for ever.
  const found = await stat(file).catch(() => undefined);
  if (found !== undefined && !found.isFile()) {
    throw new SwitchyardError(
      'E_INPUT',
      `input file ${shown} is not a regular file; give a .json file after '@'`,
    );
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    if (isNotFound(error)) throw fileNotFound(shown, "after '@' in --input");
    throw new SwitchyardError('E_INPUT', `cannot read input file ${shown}; check the path after '@'`);
  }
  return decodeUtf8OrThrow(bytes, shown, `input file ${shown}`);
}

/**
 * Parses `--input`: JSON text, `@file.json`, or `@-` (or `-`) for standard input; an object is one item, a non-empty
 * array of objects is several. Without `--input` (`text` undefined) the run has one empty item. Data that
 * item data cannot hold is refused with `E_ITEM_DATA`, naming `--input` (or its file) and the item.
 */
export async function readInput(
  text: string | undefined,
  io: Pick<CliIO, 'cwd' | 'stdin' | 'err'>,
): Promise<Record<string, unknown>[]> {
  if (text === undefined) return [{}];
  let source = text;
  let where = '--input';
  if (namesStdin(text)) {
    where = STDIN_NAME;
    source = await readStdin(io, 'the input', `echo '{"topic":"x"}' | switchyard run dag.jsonld --input @-`);
  } else if (text.startsWith('@')) {
    where = displayPath(text.slice(1), io.cwd);
    source = await inputFile(text.slice(1), io);
  }
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch {
    throw notJson('E_INPUT', where, source, 'give an object or an array of objects');
  }
  const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
  // JSON text can still give what item data cannot hold (1e400 parses as Infinity): said here, where the
  // message can name --input or its file rather than the run's items.
  if (isObject(value)) return [admitItemData(value, where)];
  if (Array.isArray(value) && value.length === 0) {
    throw new SwitchyardError(
      'E_INPUT',
      `${where} has no items: give an object (one item) or a non-empty array of objects`,
    );
  }
  if (Array.isArray(value) && value.every(isObject)) {
    return value.map((item, i) => admitItemData(item, `${where}[${i}]`));
  }
  throw new SwitchyardError(
    'E_INPUT',
    `${where} must be a JSON object (one item) or an array of objects (several items)`,
  );
}
