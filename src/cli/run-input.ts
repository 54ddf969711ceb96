import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { SwitchyardError } from '../errors.ts';

/**
 * Parses `--input`: JSON text, or `@file.json`; an object is one item, a non-empty array of objects is
 * several. Without `--input` (`text` undefined) the run has one empty item.
 */
export async function readInput(text: string | undefined, cwd: string): Promise<Record<string, unknown>[]> {
  if (text === undefined) return [{}];
  let source = text;
  let where = '--input';
  if (text.startsWith('@')) {
    const file = resolve(cwd, text.slice(1));
    where = text.slice(1);
    // Reading a FIFO or a device would wait for ever.
    const found = await stat(file).catch(() => undefined);
    if (found !== undefined && !found.isFile()) {
      throw new SwitchyardError(
        'E_INPUT',
        `input file ${where} is not a regular file; give a .json file after '@'`,
      );
    }
    try {
      source = await readFile(file, 'utf8');
    } catch {
      throw new SwitchyardError('E_INPUT', `cannot read input file ${where}; check the path after '@'`);
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    throw new SwitchyardError(
      'E_INPUT',
      `${where} is not JSON (${(error as Error).message}); give an object or an array of objects`,
    );
  }
  const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (isObject(value)) return [value as Record<string, unknown>];
  if (Array.isArray(value) && value.length === 0) {
    throw new SwitchyardError(
      'E_INPUT',
      `${where} has no items: give an object (one item) or a non-empty array of objects`,
    );
  }
  if (Array.isArray(value) && value.every(isObject)) return value as Record<string, unknown>[];
  throw new SwitchyardError(
    'E_INPUT',
    `${where} must be a JSON object (one item) or an array of objects (several items)`,
  );
}
