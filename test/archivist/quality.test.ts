import { describe, expect, it } from 'vitest';
import { loadCatalogFile } from '../../examples/archivist/catalog-file.ts';
import { DEFAULT_CATALOG } from '../../examples/archivist/paths.ts';
import { rejectDraft } from '../../nodes/archivist/checks.ts';
import { bookTitled, planSearch } from '../../nodes/archivist/plan-search.ts';
import { rankHits } from '../../nodes/archivist/rank.ts';
import { likeness } from '../../nodes/archivist/rerank.ts';
import { memoryOf } from '../../nodes/archivist/respond.ts';
import { classifyByRules } from '../../nodes/archivist/rules.ts';
import { searchBy } from '../../nodes/archivist/search-strategy.ts';
import { templateAnswer } from '../../nodes/archivist/templates.ts';
import type { Book, Candidate, Classification, Memory } from '../../nodes/archivist/types.ts';

// The answers of the real 576-book catalog, as the offline model gives them.
const catalog = await loadCatalogFile(DEFAULT_CATALOG);

interface Turn {
  readonly c: Classification;
  readonly shortlist: Candidate[];
  readonly answer: string;
  readonly memory: Memory;
}

function ask(question: string, memory?: Memory): Turn {
  const c = classifyByRules(question, memory, catalog);
  const plan = planSearch(question, c, memory, catalog);
  const hits = plan.strategies.flatMap((s) => searchBy(s, catalog));
  const shortlist = rankHits(hits, plan.filters, catalog);
  const answer = templateAnswer(c.intent, shortlist, 'model');
  expect(rejectDraft(answer, shortlist, catalog), answer).toBeUndefined();
  const data = { question, classification: c, intent: c.intent, shortlist };
  return { c, shortlist, answer, memory: memoryOf(data) };
}

function book(title: string): Book {
  const found = catalog.books.find((b) => b.title === title);
  if (!found) throw new Error(`"${title}" is not in the catalog`);
  return found;
}

/** The authors of the books an answer names in quotes, in order. */
function namedAuthors(answer: string): string[] {
  return [...answer.matchAll(/"([^"]+)"/g)].flatMap((m) => book(m[1] ?? '').authors);
}

describe('find by title', () => {
  it('follows "The Remains of the Day" with Ishiguro, not keyword matches on "day"', () => {
    const { shortlist, answer } = ask('who wrote The Remains of the Day?');
    expect(shortlist[0]?.title).toBe('The Remains of the Day');
    expect(answer).toMatch(/^The catalog has "The Remains of the Day" by Kazuo Ishiguro \(1989\)/);
    expect(answer).toContain('Also by Kazuo Ishiguro: "');
    expect(answer).not.toMatch(/Solzhenitsyn|Sanderson|Feynman|Keynes/);
    for (const b of shortlist) expect(b.authors).toContain('Kazuo Ishiguro');
  });

  it('names only books close to the title: same author or several shared subjects', () => {
    const { shortlist, answer } = ask('find Brave New World');
    expect(shortlist[0]?.title).toBe('Brave New World');
    expect(answer).not.toMatch(/Silk Roads|Around the World|Sophie/);
    for (const b of shortlist.slice(1)) expect(b.subjects).toContain('dystopia');
  });

  it('says nothing extra when nothing strong is left', () => {
    const { shortlist, answer } = ask('who wrote Wide Sargasso Sea?');
    expect(shortlist.map((b) => b.title)).toEqual(['Wide Sargasso Sea']);
    expect(answer).not.toMatch(/Also|Related/);
  });

  it('reads a title made of request words as a title ("Something Wicked This Way Comes")', () => {
    const { c, shortlist } = ask('who wrote Something Wicked This Way Comes?');
    expect(c.intent).toBe('find');
    expect(shortlist[0]?.authors).toEqual(['Ray Bradbury']);
  });

  it('takes no length from a title ("A Short History of Nearly Everything")', () => {
    expect(ask('who wrote A Short History of Nearly Everything?').c.shorter).toBe(false);
  });

  it('resolves a classified title only to a catalog title containing it', () => {
    expect(bookTitled('the remains of the day', catalog)?.id).toBe(book('The Remains of the Day').id);
    expect(bookTitled('Harry Potter and the Goblet of Fire', catalog)).toBeUndefined();
  });
});

describe('find by author', () => {
  it.each([
    ['books by Ursula K. Le Guin', 'Ursula K. Le Guin'],
    ['anything by Orwell', 'George Orwell'],
    ['what did Toni Morrison write?', 'Toni Morrison'],
  ])('%s lists only %s', (question, author) => {
    const { shortlist, answer } = ask(question);
    expect(shortlist.length).toBeGreaterThan(2);
    for (const b of shortlist) expect(b.authors).toContain(author);
    expect(new Set(namedAuthors(answer))).toEqual(new Set([author]));
  });
});

describe('describe', () => {
  it.each([
    ['tell me about Middlemarch', 'Middlemarch'],
    ['what is Beloved about?', 'Beloved'],
    ['describe Frankenstein', 'Frankenstein'],
  ])('%s describes %s and shortlists no keyword noise', (question, title) => {
    const { c, shortlist, answer } = ask(question);
    expect(c.intent).toBe('describe');
    expect(answer.startsWith(`"${title}" by `)).toBe(true);
    const named = book(title);
    for (const b of shortlist.slice(1)) {
      const sharesAuthor = b.authors.some((a) => named.authors.includes(a));
      const shared = b.subjects.filter((s) => named.subjects.includes(s));
      expect(sharesAuthor || shared.length >= 2, b.title).toBe(true);
    }
  });
});

describe('recommend by subject', () => {
  it('maps everyday words to catalog subjects', () => {
    expect(catalog.subjectsIn('a funny fantasy novel')).toEqual(expect.arrayContaining(['fantasy', 'humor']));
    expect(catalog.subjectsIn('something scary')).toEqual(['horror']);
    expect(catalog.subjectsIn('a whodunit')).toEqual(['mystery']);
    expect(catalog.subjectsIn('a love story')).toEqual(['romance']);
    expect(catalog.subjectsIn('some sci-fi')).toEqual(['science fiction']);
    expect(catalog.subjectsIn('a hilarious book about space')).toEqual(
      expect.arrayContaining(['humor', 'space']),
    );
  });

  it('a funny fantasy novel: books that are both humor and fantasy, not George R. R. Martin', () => {
    const { c, shortlist, answer } = ask('I want a funny fantasy novel');
    expect(c.intent).toBe('recommend');
    for (const b of shortlist.slice(0, 3))
      expect(b.subjects).toEqual(expect.arrayContaining(['humor', 'fantasy']));
    expect(namedAuthors(answer)).toContain('Terry Pratchett');
    expect(answer).not.toContain('George R. R. Martin');
  });

  it('a hilarious book about space names Douglas Adams', () => {
    const { shortlist, answer } = ask('a hilarious book about space');
    for (const b of shortlist) expect(b.subjects).toEqual(expect.arrayContaining(['humor', 'space']));
    expect(namedAuthors(answer)).toContain('Douglas Adams');
  });

  it('something short and scary: horror, at most 250 pages', () => {
    const { c, shortlist } = ask('something short and scary');
    expect(c).toMatchObject({ intent: 'recommend', shorter: true });
    expect(shortlist.length).toBeGreaterThan(2);
    for (const b of shortlist) {
      expect(b.subjects).toContain('horror');
      expect(b.pages).toBeLessThanOrEqual(250);
    }
  });

  it.each([
    ['a classic romance', ['classic', 'romance']],
    ['a whodunit', ['mystery']],
    ['recommend a scary novel', ['horror']],
    ['a book about evolution', ['evolution']],
  ])('%s is a recommendation of %j books', (question, subjects) => {
    const { c, shortlist } = ask(question);
    expect(c.intent).toBe('recommend');
    expect(shortlist.length).toBeGreaterThan(2);
    for (const b of shortlist) expect(b.subjects).toEqual(expect.arrayContaining(subjects));
  });

  it('gives no author more than two places', () => {
    const { shortlist } = ask('a book about evolution');
    const counts = new Map<string, number>();
    for (const a of shortlist.flatMap((b) => b.authors)) counts.set(a, (counts.get(a) ?? 0) + 1);
    expect(Math.max(...counts.values())).toBeLessThanOrEqual(2);
  });

  it('a long fantasy epic is a recommendation of long fantasy books', () => {
    const { c, shortlist } = ask('a long fantasy epic');
    expect(c).toMatchObject({ intent: 'recommend', longer: true });
    for (const b of shortlist) expect(b.pages).toBeGreaterThanOrEqual(400);
  });

  it('takes "short stories" for a subject, not a length', () => {
    const { c, shortlist } = ask('a collection of short stories');
    expect(c.shorter).toBe(false);
    for (const b of shortlist) expect(b.subjects).toContain('short stories');
  });
});

describe('recommend something like X', () => {
  it('like Dune: not Dune, one Herbert at most, mostly other authors', () => {
    const { shortlist, answer } = ask('recommend something like Dune');
    expect(shortlist.map((b) => b.title)).not.toContain('Dune');
    expect(shortlist.filter((b) => b.authors.includes('Frank Herbert')).length).toBeLessThanOrEqual(1);
    expect(shortlist[0]?.authors).not.toContain('Frank Herbert');
    const others = new Set(namedAuthors(answer).filter((a) => a !== 'Frank Herbert'));
    expect(others.size).toBeGreaterThanOrEqual(2);
    for (const b of shortlist) expect(b.subjects).toContain('science fiction');
  });

  it('like Pride and Prejudice: one Austen at most', () => {
    const { shortlist } = ask('something like Pride and Prejudice');
    expect(shortlist.filter((b) => b.authors.includes('Jane Austen')).length).toBeLessThanOrEqual(1);
    expect(shortlist.length).toBe(5);
  });

  it('like Nineteen Eighty-Four: dystopias first', () => {
    const { shortlist } = ask('something like Nineteen Eighty-Four');
    for (const b of shortlist.slice(0, 2)) expect(b.subjects).toContain('dystopia');
  });

  it('weighs rare subjects over common ones', () => {
    const dune = book('Dune');
    expect(likeness(book('Foundation'), dune, catalog)).toBeGreaterThan(
      likeness(book('Middlemarch'), dune, catalog),
    );
    expect(likeness(dune, dune, catalog)).toBe(1);
  });
});

describe('follow-ups in a conversation', () => {
  it('something shorter by the same author uses the pages of the previous book', () => {
    const first = ask('tell me about Dune');
    const next = ask('something shorter by the same author', first.memory);
    expect(next.shortlist.length).toBeGreaterThan(0);
    for (const b of next.shortlist) {
      expect(b.authors).toContain('Frank Herbert');
      expect(b.pages).toBeLessThan(book('Dune').pages);
    }
  });

  it('something like it: the previous book’s neighbours by other authors', () => {
    const first = ask('tell me about Nineteen Eighty-Four');
    const next = ask('something like it', first.memory);
    expect(next.shortlist.map((b) => b.title)).not.toContain('Nineteen Eighty-Four');
    expect(next.shortlist[0]?.authors).not.toContain('George Orwell');
  });

  it('something shorter after an author’s book stays near its subjects', () => {
    const first = ask('books by Terry Pratchett');
    const next = ask('something shorter', first.memory);
    const pages = first.shortlist[0]?.pages ?? 0;
    for (const b of next.shortlist) expect(b.pages).toBeLessThan(pages);
    // The list is in publication order, so the book remembered is the author's first; the next stays near it.
    const near = next.shortlist[0]?.subjects.filter((s) => first.shortlist[0]?.subjects.includes(s)) ?? [];
    expect(near.length).toBeGreaterThan(0);
  });
});
