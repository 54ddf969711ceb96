import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CATALOG } from '../../examples/archivist/paths.ts';
import { compareTitles } from '../../nodes/archivist/title-order.ts';
import type { Book } from '../../nodes/archivist/types.ts';

const TITLES = (JSON.parse(readFileSync(DEFAULT_CATALOG, 'utf8')) as Book[]).map((book) => book.title);
// Case, prefixes, digits, punctuation, spaces and letters outside ASCII, where collation is not code order.
const ODD = ['abc', 'ABC', 'abcd', 'abc d', 'ab-c', 'a b', 'ab', '1984', '2001', '10', '9', 'a1', 'aa', 'Äb'];
const MORE = [
  'Zed',
  'zed',
  'z',
  '',
  ' ',
  'x!',
  'x?',
  "O'Hara",
  'OHara',
  'O Hara',
  'Ōe',
  'oe',
  'Œuvres',
  'Éclair',
];

describe('compareTitles', () => {
  it('orders titles as English collation does', () => {
    const all = [...TITLES, ...ODD, ...MORE];
    const wrong: string[] = [];
    for (const a of all) {
      for (const b of all) {
        if (Math.sign(compareTitles(a, b)) !== Math.sign(a.localeCompare(b, 'en'))) wrong.push(`${a} | ${b}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('sorts digits first, then letters without regard to case', () => {
    expect(['dune', 'Brave New World', '1984', 'brave'].sort(compareTitles)).toEqual([
      '1984',
      'brave',
      'Brave New World',
      'dune',
    ]);
  });
});
