/**
 * JSON texts that many runs of a SQLite store share (a document's record, a policy), kept once in `texts`
 * under the SHA-256 of the text. A run's column then holds `#` and the hash instead of the text: JSON text
 * never starts with `#`, so a column written before (the text itself) reads as it always did.
 */
import { createHash } from 'node:crypto';
import { SwitchyardError } from '../errors.ts';
import type { Statements } from './sqlite-statements.ts';

/** Texts shorter than this stay in the run's row: a reference would save little. */
const SHARED_FROM = 128;

/** Hashes of the texts seen lately, so that the same text (the same string, often) is hashed once. */
const hashes = new Map<string, string>();
const REMEMBERED = 256;

/** What a run's column holds for `text`: `#<hash>` with the text kept in `texts`, or the text itself. */
export function sharedText(sql: Statements, text: string): string {
  if (text.length < SHARED_FROM) return text;
  let hash = hashes.get(text);
  if (hash === undefined) {
    hash = createHash('sha256').update(text).digest('hex');
    if (hashes.size >= REMEMBERED) hashes.clear();
    hashes.set(text, hash);
  }
  sql.putText.run(hash, text);
  return `#${hash}`;
}

/** The text a run's column stands for (see {@link sharedText}). */
export function columnText(sql: Statements, column: string): string {
  if (column.charCodeAt(0) !== 35) return column; // '#'
  const text = sql.getText.get(column.slice(1)) as string | undefined;
  if (text === undefined) {
    throw new SwitchyardError(
      'E_STORE_CORRUPT',
      `the store names a shared text ${column.slice(1, 13)}… that it no longer holds; the file was changed outside Switchyard`,
    );
  }
  return text;
}
