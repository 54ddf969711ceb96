import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CATALOG } from '../../examples/archivist/paths.ts';
import { createCatalog } from '../../nodes/archivist/catalog.ts';
import { nearestTo } from '../../nodes/archivist/closest.ts';
import { parseConstraints } from '../../nodes/archivist/constraints.ts';
import { factAnswer } from '../../nodes/archivist/fact-answer.ts';
import { followUpOf } from '../../nodes/archivist/follow-up.ts';
import { fromOrigin, originOf } from '../../nodes/archivist/origin.ts';
import { readQuestion } from '../../nodes/archivist/reading.ts';
import type { Book } from '../../nodes/archivist/types.ts';

const catalog = createCatalog(JSON.parse(readFileSync(DEFAULT_CATALOG, 'utf8')) as Book[]);
const book = (id: string) => catalog.get(id) as Book;

describe('parseConstraints', () => {
  it.each([
    ['fantasy under 250 pages', { maxPages: 249, rest: 'fantasy' }],
    ['a long fantasy book, over 600 pages', { minPages: 601 }],
    ['history books published before 1960', { maxYear: 1959 }],
    ['crime novels published after 2000', { minYear: 2001 }],
    ['science fiction from the 1960s', { minYear: 1960, maxYear: 1969 }],
    ['novels from the twenties', { minYear: 1920, maxYear: 1929 }],
    ['a classic from the 1800s', { minYear: 1800, maxYear: 1899 }],
    ['a novel from the last twenty years', { minYear: 2006 }],
    ['economics books from this century', { minYear: 2001 }],
    ['a detective novel from the golden age of crime fiction', { minYear: 1920, maxYear: 1939 }],
  ])('%s', (question, expected) => {
    expect(parseConstraints(question, 2026)).toMatchObject(expected);
  });

  it('reads every author after "not by", and leaves a bare number alone', () => {
    expect(
      parseConstraints('books about the universe but not by Stephen Hawking or Carl Sagan', 2026),
    ).toEqual({
      notAuthors: ['Stephen Hawking', 'Carl Sagan'],
      rest: 'books about the universe',
    });
    expect(parseConstraints('1984', 2026)).toEqual({ notAuthors: [], rest: '1984' });
  });

  it('counts "the last N years" from the year it is given', () => {
    expect(parseConstraints('from the last ten years', 2030).minYear).toBe(2020);
  });
});

describe('originOf', () => {
  it('reads languages, countries and ages', () => {
    expect(originOf('books translated from Spanish').filter).toEqual({
      languages: ['Spanish'],
      languageOnly: true,
    });
    expect(originOf('novels by Irish authors').filter).toEqual({ countries: ['Ireland'] });
    expect(originOf('a book for a twelve-year-old').filter).toEqual({ audiences: ['children'] });
    expect(originOf('a picture book for a four-year-old').filter).toEqual({ audiences: ['young children'] });
    // Lower case is an ordinary word, not a people.
    expect(originOf('french fries').filter).toEqual({});
  });

  it('reads the countries a question names after "from", "in" or "set in", and leaves their words out', () => {
    expect(originOf('a thriller set in Sweden')).toEqual({
      filter: { countries: ['Sweden'] },
      rest: 'a thriller',
    });
    expect(originOf('novels from the UK or from Japan').filter).toEqual({
      countries: ['Japan', 'United Kingdom'],
    });
    expect(originOf('a walk in the woods').filter).toEqual({});
  });

  it('keeps only books whose fact is known and fits', () => {
    const russian = originOf('a Russian novel').filter;
    expect(fromOrigin(book('anna-karenina'), russian)).toBe(true);
    expect(fromOrigin(book('dune'), russian)).toBe(false);
  });
});

describe('readQuestion', () => {
  const read = (q: string) => readQuestion(q, catalog, undefined, 2026);

  it('finds titles written loosely, series and misspelt authors', () => {
    expect(read('Great Gatsby').book?.id).toBe('the-great-gatsby');
    expect(read('the Dune books').series).toBe('Dune');
    expect(read('Lord of the Rings').series).toBe('The Lord of the Rings');
    expect(read('books by Leo Tolstoi').author).toBe('Leo Tolstoy');
    expect(read('Dostoyevsky novels').author).toBe('Fyodor Dostoevsky');
  });

  it('says what the catalog does not hold, and keeps the author it does', () => {
    expect(read('Harry Potter and the Goblet of Fire').missing).toEqual({
      name: 'Harry Potter and the Goblet of Fire',
      author: false,
    });
    expect(read('The Idiot by Dostoevsky')).toMatchObject({
      missing: { name: 'The Idiot', author: false },
      author: 'Fyodor Dostoevsky',
    });
    expect(read('books by Dan Brown').missing).toEqual({ name: 'Dan Brown', author: true });
    expect(read('science fiction not by Isaac Asimov')).toMatchObject({ notAuthors: ['Isaac Asimov'] });
    expect(read('science fiction not by Isaac Asimov').missing).toBeUndefined();
    expect(read('Japanese fiction').missing).toBeUndefined();
  });

  it('takes an ordinary word for a surname only where the sentence is about an author', () => {
    expect(read('a swift read for a train journey').author).toBeUndefined();
    expect(read("Swift's satire about Lilliput").author).toBe('Jonathan Swift');
    expect(read('French novels in translation').author).toBeUndefined();
  });
});

describe('closest matches and fact answers', () => {
  it('offers the books of a catalog series a missing title names, labelled as closest', () => {
    const closest = nearestTo('Heretics of Frank', false, catalog).books.map((b) => b.id);
    expect(closest).toEqual([]);
    const dune = nearestTo('The Heretics of Dune Revisited', false, catalog).books.map((b) => b.id);
    expect(dune.slice(0, 4)).toEqual(['dune', 'dune-messiah', 'children-of-dune', 'god-emperor-of-dune']);
    const text = factAnswer({ exclude: [], missing: { name: 'Heretics of Dune', author: false } }, [
      book('dune'),
    ]);
    expect(text).toBe(
      'The catalog does not hold Heretics of Dune. The closest matches it does hold are "Dune" by Frank Herbert (1965).',
    );
  });

  it('lists an author in publication order and a series in series order', () => {
    const list = ['the-colour-of-magic', 'mort', 'guards-guards'].map(book);
    expect(factAnswer({ exclude: [], list: list.map((b) => b.id) }, list)).toMatch(
      /^The catalog holds 3 books of the Discworld series, in series order: "The Colour of Magic"/,
    );
  });
});

describe('followUpOf', () => {
  const shown = { shortlist: ['carrie', 'salems-lot', 'the-shining'], bookId: 'carrie' };

  it('resolves ordinals and superlatives over the previous answer', () => {
    expect(followUpOf('tell me about the second one', shown, catalog)?.book?.id).toBe('salems-lot');
    expect(followUpOf('which of them is the longest?', shown, catalog)?.book?.id).toBe('salems-lot');
    expect(followUpOf('which of them is the shortest?', shown, catalog)?.book?.id).toBe('carrie');
    expect(followUpOf('which one came out first?', shown, catalog)?.book?.id).toBe('carrie');
  });

  it('goes on in a series', () => {
    const memory = { shortlist: ['wolf-hall'], bookId: 'wolf-hall' };
    expect(followUpOf('what comes next in the series?', memory, catalog)?.book?.id).toBe(
      'bring-up-the-bodies',
    );
    expect(followUpOf('and the last one of the trilogy?', memory, catalog)?.book?.id).toBe(
      'the-mirror-and-the-light',
    );
  });

  it('finds others like the anchor, older, from its decade or by someone else', () => {
    const memory = { shortlist: ['hyperion'], bookId: 'hyperion', anchor: 'dune' };
    expect(followUpOf('older ones', memory, catalog)).toMatchObject({ maxYear: 1964, exclude: ['dune'] });
    expect(followUpOf('something from the same decade', memory, catalog)).toMatchObject({
      minYear: 1960,
      maxYear: 1969,
    });
    expect(followUpOf('something similar by a different author', memory, catalog)?.notAuthors).toEqual([
      'Frank Herbert',
    ]);
    expect(followUpOf('not those, something else', memory, catalog)?.exclude).toEqual(['hyperion', 'dune']);
    expect(followUpOf('books by Jane Austen', memory, catalog)).toBeUndefined();
    const achebe = { shortlist: ['things-fall-apart'], bookId: 'things-fall-apart' };
    expect(followUpOf('more from the same country', achebe, catalog)?.origin).toEqual({
      countries: ['Nigeria'],
    });
  });
});
