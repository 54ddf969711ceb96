import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CATALOG } from '../../examples/archivist/paths.ts';
import { createCatalog } from '../../nodes/archivist/catalog.ts';
import { editDistance, numberWords, sameWord, spellings } from '../../nodes/archivist/text-match.ts';
import { matchTitle } from '../../nodes/archivist/title-match.ts';
import type { Book } from '../../nodes/archivist/types.ts';

const catalog = createCatalog(JSON.parse(readFileSync(DEFAULT_CATALOG, 'utf8')) as Book[]);

describe('forgiving word comparison', () => {
  it('reads numbers as counts and as years', () => {
    expect(numberWords(1984)).toEqual(['one thousand nine hundred eighty four', 'nineteen eighty four']);
    expect(numberWords(20000)).toEqual(['twenty thousand']);
    expect(numberWords(2000)).toEqual(['two thousand']);
  });

  it('spells digits, ampersands and roman numerals in every way a title may be written', () => {
    expect(spellings('Slaughterhouse 5')).toContain('slaughterhouse five');
    expect(spellings('20,000 leagues')).toContain('twenty thousand leagues');
    expect(spellings('Pride & Prejudice')).toContain('pride and prejudice');
    expect(spellings('Capital, Volume I')).toContain('capital volume one');
    // "I" inside a title is the pronoun.
    expect(spellings('I Know Why the Caged Bird Sings')).toEqual(['i know why the caged bird sings']);
  });

  it('tolerates a typo in long words only, and a plural s', () => {
    expect(editDistance('hobit', 'hobbit')).toBe(1);
    expect(sameWord('tolstoi', 'tolstoy')).toBe(true);
    expect(sameWord('alice', 'alices')).toBe(true);
    expect(sameWord('grief', 'brief')).toBe(false);
    expect(sameWord('cats', 'cars')).toBe(false);
  });
});

describe('matchTitle', () => {
  it.each([
    ['the hobit', 'the-hobbit'],
    ['hobbit', 'the-hobbit'],
    ['Catcher in the Rye', 'the-catcher-in-the-rye'],
    ['1984', 'nineteen-eighty-four'],
    ['2001', '2001-a-space-odyssey'],
    ['1Q84', '1q84'],
    ['Farenheit 451', 'fahrenheit-451'],
    ['Slaughterhouse 5', 'slaughterhouse-five'],
    ['Alice in Wonderland', 'alices-adventures-in-wonderland'],
    ['Das Kapital volume one', 'capital-volume-one'],
  ])('%s → %s', (phrase, id) => {
    expect(matchTitle(phrase, catalog)?.id).toBe(id);
  });

  it('never takes a look-alike for a book the catalog does not hold', () => {
    for (const phrase of [
      'Heretics of Dune',
      'Harry Potter and the Goblet of Fire',
      'Brave New World Revisited',
      'Foundation and Empire',
      'Lord of the Rings',
      'Silence',
    ]) {
      expect(matchTitle(phrase, catalog), phrase).toBeUndefined();
    }
  });
});
