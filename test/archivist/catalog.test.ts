import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

interface Book {
  id: string;
  title: string;
  authors: string[];
  year: number;
  pages: number;
  subjects: string[];
  description: string;
}

const catalogPath = fileURLToPath(new URL('../../examples/archivist/catalog.json', import.meta.url));
const raw = readFileSync(catalogPath, 'utf8');
const catalog = JSON.parse(raw) as unknown;
const books = catalog as Book[];

const FIELDS = ['id', 'title', 'authors', 'year', 'pages', 'subjects', 'description'];
const wordCount = (s: string): number => s.trim().split(/\s+/).filter(Boolean).length;

describe('archivist catalog.json', () => {
  it('is an array of at least 200 books', () => {
    expect(Array.isArray(catalog)).toBe(true);
    expect(books.length).toBeGreaterThanOrEqual(200);
  });

  it('has every field with the right type and no extra fields', () => {
    for (const book of books) {
      const optional = ['otherTitles', 'series', 'seriesNumber', 'language', 'country', 'audience'];
      const keys = Object.keys(book).filter((k) => !optional.includes(k));
      expect(keys.sort(), book.id).toEqual([...FIELDS].sort());
      // A series is known with its number, or not at all.
      const b = book as { series?: unknown; seriesNumber?: unknown };
      expect(b.series === undefined, book.id).toBe(b.seriesNumber === undefined);
      if (b.series !== undefined) {
        expect(typeof b.series, book.id).toBe('string');
        expect(Number.isInteger(b.seriesNumber) && (b.seriesNumber as number) > 0, book.id).toBe(true);
      }
      // Other titles are a list of non-empty titles, none the catalog title itself.
      const others = (book as { otherTitles?: unknown }).otherTitles;
      if (others !== undefined) {
        expect(Array.isArray(others) && others.length > 0, book.id).toBe(true);
        for (const other of others as unknown[]) {
          expect(typeof other === 'string' && other.trim() !== '' && other !== book.title, book.id).toBe(
            true,
          );
        }
      }
      // Unknown facts are left out, never empty strings; an audience is one of three.
      const facts = book as { language?: unknown; country?: unknown; audience?: unknown };
      for (const value of [facts.language, facts.country, facts.audience]) {
        if (value !== undefined) expect(typeof value === 'string' && value.trim() !== '', book.id).toBe(true);
      }
      if (facts.audience !== undefined)
        expect(['young children', 'children', 'young adult'], book.id).toContain(facts.audience);
      expect(typeof book.id).toBe('string');
      expect(typeof book.title, book.id).toBe('string');
      expect(book.title.trim().length, book.id).toBeGreaterThan(0);
      expect(Array.isArray(book.authors), book.id).toBe(true);
      expect(book.authors.length, book.id).toBeGreaterThan(0);
      for (const author of book.authors) {
        expect(typeof author, book.id).toBe('string');
        expect(author.trim().length, book.id).toBeGreaterThan(0);
      }
      expect(Number.isInteger(book.year), book.id).toBe(true);
      expect(Number.isInteger(book.pages), book.id).toBe(true);
      expect(Array.isArray(book.subjects), book.id).toBe(true);
      expect(typeof book.description, book.id).toBe('string');
    }
  });

  it('has unique kebab-case ids, sorted', () => {
    const ids = books.map((b) => b.id);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort());
  });

  it('has unique titles', () => {
    const titles = books.map((b) => b.title.toLowerCase());
    expect(new Set(titles).size).toBe(titles.length);
  });

  it('has plausible years and page counts', () => {
    for (const book of books) {
      expect(book.year, book.id).toBeGreaterThanOrEqual(-800);
      expect(book.year, book.id).toBeLessThanOrEqual(2026);
      expect(book.pages, book.id).toBeGreaterThanOrEqual(20);
      expect(book.pages, book.id).toBeLessThanOrEqual(2500);
    }
  });

  it('has 3-6 unique lowercase subjects per book from a compact vocabulary', () => {
    const vocabulary = new Set<string>();
    for (const book of books) {
      expect(book.subjects.length, book.id).toBeGreaterThanOrEqual(3);
      expect(book.subjects.length, book.id).toBeLessThanOrEqual(6);
      expect(new Set(book.subjects).size, book.id).toBe(book.subjects.length);
      for (const subject of book.subjects) {
        expect(typeof subject, book.id).toBe('string');
        expect(subject, book.id).toBe(subject.toLowerCase());
        expect(subject, book.id).toBe(subject.trim());
        expect(subject.length, book.id).toBeGreaterThan(0);
        vocabulary.add(subject);
      }
    }
    expect(vocabulary.size).toBeLessThanOrEqual(80);
  });

  it('has descriptions of 15-45 words', () => {
    for (const book of books) {
      const n = wordCount(book.description);
      expect(n, book.id).toBeGreaterThanOrEqual(15);
      expect(n, book.id).toBeLessThanOrEqual(45);
    }
  });

  it('has at least 15 authors with three or more books', () => {
    const counts = new Map<string, number>();
    for (const book of books) {
      for (const author of book.authors) counts.set(author, (counts.get(author) ?? 0) + 1);
    }
    const prolific = [...counts.values()].filter((c) => c >= 3);
    expect(prolific.length).toBeGreaterThanOrEqual(15);
  });
});
