/**
 * The reading mechanisms that make the Archivist answer questions phrased in ways its rules were not
 * written for: transposed letters, lower-case nationalities and names, "not X" without "by", secondary
 * suggestions under the main answer's constraints, and follow-ups that narrow or extend the last list.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { askQuestion } from '../../bench/archivist-eval/drive.ts';
import type { EvalQuestion } from '../../bench/archivist-eval/set.ts';
import { DEFAULT_CATALOG } from '../../examples/archivist/paths.ts';
import { createCatalog } from '../../nodes/archivist/catalog.ts';
import { parseConstraints } from '../../nodes/archivist/constraints.ts';
import { fromOrigin, originOf } from '../../nodes/archivist/origin.ts';
import { readQuestion } from '../../nodes/archivist/reading.ts';
import { editDistance, sameWord } from '../../nodes/archivist/text-match.ts';
import type { Book } from '../../nodes/archivist/types.ts';

const catalog = createCatalog(JSON.parse(readFileSync(DEFAULT_CATALOG, 'utf8')) as Book[]);
const book = (id: string) => catalog.get(id) as Book;

/** The books `archivist ask --json` presents for each turn of a conversation (or of one question). */
async function presented(...asks: string[]): Promise<Book[][]> {
  const question: EvalQuestion = {
    id: 'probe',
    class: 'follow-ups',
    turns: asks.map((ask) => ({ ask, expect: { minBooks: 1 } })),
  };
  const output = await askQuestion(question);
  if (!output.ok) throw new Error(output.error);
  return output.turns.map((turn) => {
    const ids = Array.isArray(turn.json?.books)
      ? (turn.json.books as unknown[]).map((b) => (typeof b === 'string' ? b : (b as { id: string }).id))
      : [...turn.text.matchAll(/"([^"]+)"/g)].flatMap(
          ([, title]) => catalog.books.find((b) => b.title === title)?.id ?? [],
        );
    return [...new Set(ids)].map(book);
  });
}

describe('matching words', () => {
  it('counts two neighbouring letters swapped as one edit', () => {
    expect(editDistance('tolkein', 'tolkien')).toBe(1);
    expect(editDistance('hobit', 'hobbit')).toBe(1);
    expect(editDistance('abcd', 'badc')).toBe(2);
    expect(sameWord('tolkein', 'tolkien')).toBe(true);
    // Short words still need to be exact: "grief" is not "brief".
    expect(sameWord('grief', 'brief')).toBe(false);
  });

  it('reads a misspelt author after "by" and a bare lower-case one', () => {
    expect(readQuestion('books by tolkein', catalog, undefined, 2026).author).toBe('J. R. R. Tolkien');
    expect(readQuestion('hemmingway', catalog, undefined, 2026).author).toBe('Ernest Hemingway');
  });

  it('names the longer subject only: "science fiction" is not also "science"', () => {
    expect(catalog.subjectsIn('a science fiction book')).toEqual(['science fiction']);
  });
});

describe('origin and limits', () => {
  it('reads a lower-case nationality before a kind of writing, not elsewhere', () => {
    expect(originOf('a french novel from the 19th century').filter.languages).toEqual(['French']);
    expect(originOf('russian literature').filter.countries).toEqual(['Russia']);
    expect(originOf('a book about french cooking').filter).toEqual({});
  });

  it('reads "for a teenager" and "for kids" as audiences', () => {
    expect(originOf('a dystopia for a teenager').filter.audiences).toEqual(['young adult']);
    expect(originOf('something funny for kids').filter.audiences).toEqual(['children']);
    expect(fromOrigin(book('the-giver'), originOf('for teens').filter)).toBe(true);
  });

  it('reads an unwanted author without "by" and centuries in words', () => {
    expect(parseConstraints('a mystery, but not Agatha Christie', 2026).notAuthors).toEqual([
      'Agatha Christie',
    ]);
    expect(parseConstraints('horror, nothing by Stephen King', 2026).notAuthors).toEqual(['Stephen King']);
    expect(parseConstraints('not The Hobbit again', 2026).notAuthors).toEqual([]);
    expect(parseConstraints('poetry from the twentieth century', 2026)).toMatchObject({
      minYear: 1901,
      maxYear: 2000,
    });
  });

  it('takes "French" after "from" for the language, after "by" for Tana French', () => {
    expect(readQuestion('a classic translated from French', catalog, undefined, 2026).origin).toEqual({
      languages: ['French'],
      languageOnly: true,
    });
    expect(readQuestion('crime novels by French', catalog, undefined, 2026).origin).toEqual({});
  });
});

describe('books named by place, by a wrong author, or excluded', () => {
  const read = (q: string) => readQuestion(q, catalog, undefined, 2026);

  it('finds the book at a place of a series, and says so when the catalog does not hold that place', () => {
    expect(read('the second Dune book').book?.id).toBe('dune-messiah');
    expect(read('Dune book 3').book?.id).toBe('children-of-dune');
    expect(read('the fourth Hunger Games book').missing).toEqual({
      name: 'book 4 of The Hunger Games series',
      author: false,
    });
  });

  it('takes a held title by another author, or with more words to it, for a book not held', () => {
    const other = read('does the library have Donna Tartt’s novel The Secret Garden Party?');
    expect(other.missing?.name).toBe('The Secret Garden Party');
    expect(other.author).toBe('Donna Tartt');
    // A title followed by its own author's name is that book.
    expect(read('The Hobbit Tolkien').missing).toBeUndefined();
    expect(read('dune frank herbert').book?.id).toBe('dune');
    expect(read('all the Roald Dahl books').book).toBeUndefined();
  });

  it('reads "not the Hobbit" as a book not wanted, and page ranges', () => {
    expect(read('books by tolkien not the hobbit').notBooks).toEqual(['the-hobbit']);
    expect(parseConstraints('a mystery between 200 and 300 pages', 2026)).toMatchObject({
      minPages: 200,
      maxPages: 300,
      rest: 'a mystery',
    });
  });
});

describe('answers', () => {
  it('does not call a list the question narrowed all the catalog holds', async () => {
    const output = await askQuestion({
      id: 'narrowed',
      class: 'author-books',
      turns: [{ ask: 'stephen king books before 1980', expect: { minBooks: 1 } }],
    });
    const text = output.turns[0]?.text ?? '';
    expect(text).toMatch(/^Of the catalog's books by Stephen King, 4 books fit the question/);
    expect(text).not.toMatch(/\bIt\b|Misery/);
  });

  it('holds every book of an answer, the suggestions after the first too, to the question’s limits', async () => {
    const [french] = await presented('a french novel from the 19th century');
    expect(french?.length).toBeGreaterThan(0);
    for (const b of french ?? []) {
      expect(b.language === 'French' || b.country === 'France', b.id).toBe(true);
      expect(b.year > 1800 && b.year <= 1900, b.id).toBe(true);
    }
    const [short] = await presented('recommend a science fiction book under 200 pages');
    expect(short?.length).toBeGreaterThan(0);
    for (const b of short ?? []) {
      expect(b.subjects, b.id).toContain('science fiction');
      expect(b.pages, b.id).toBeLessThan(200);
    }
  });

  it('lists the books of every author of a shared surname named as an author', async () => {
    const [walker] = await presented('what do you have by Walker');
    expect(walker?.map((b) => b.id).sort()).toEqual(['the-color-purple', 'why-we-sleep']);
  });

  it('narrows the last list by a limit, and "another one" shows books not shown before', async () => {
    const [all, short] = await presented('John Steinbeck', 'only the ones under 200 pages');
    expect(all?.length).toBeGreaterThan(3);
    expect(short?.map((b) => b.id)).toEqual(['of-mice-and-men', 'cannery-row', 'the-pearl']);
    const turns = await presented('recommend a detective story', 'another one please', 'and one more');
    const ids = turns.map((t) => t.map((b) => b.id));
    expect(ids.every((t) => t.length > 0)).toBe(true);
    const seen = new Set<string>();
    for (const t of ids) {
      for (const id of t) expect(seen.has(id), id).toBe(false);
      for (const id of t) seen.add(id);
    }
    for (const t of turns.slice(1)) for (const b of t) expect(b.subjects, b.id).toContain('detective');
  });
});
