/**
 * Every answer of the evaluation folder (the set and the held-out questions, conversations included) is
 * grounded in the catalog: each quoted title is a catalog title, and the author, year and page count cited
 * with it are that book's own.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { askQuestion } from '../../bench/archivist-eval/drive.ts';
import { EVAL_CATALOG } from '../../bench/archivist-eval/run.ts';
import { loadEvalSet } from '../../bench/archivist-eval/set.ts';
import type { Book } from '../../nodes/archivist/types.ts';

const books = JSON.parse(readFileSync(EVAL_CATALOG, 'utf8')) as Book[];
const byTitle = new Map<string, Book[]>();
for (const book of books) {
  for (const key of new Set([book.title, book.title.split(':')[0]?.trim() ?? book.title])) {
    byTitle.set(key, [...(byTitle.get(key) ?? []), book]);
  }
}

// `"Title" by Author (1937, 310 pages)`, `"Title" by Author (1937)` and `"Title" (1937)`.
const CITED = /"([^"]+)"(?: by ([^"()]+?))? \((\d{1,4})(?:, (\d+) pages)?\)/g;
const QUOTED = /"([^"]+)"/g;
const LIMIT = /\b(?:under|over|between \d+ and) \d+ pages\b/g;

/** What in `text` is not in the catalog: unknown quoted titles, and authors, years and pages not the book's. */
function ungrounded(text: string): string[] {
  const problems: string[] = [];
  for (const [, title = ''] of text.matchAll(QUOTED)) {
    if (!byTitle.has(title)) problems.push(`"${title}" is not a catalog title`);
  }
  for (const [, title = '', author, year, pages] of text.matchAll(CITED)) {
    const candidates = byTitle.get(title) ?? [];
    if (candidates.length === 0) continue;
    const fits = candidates.some(
      (b) =>
        (author === undefined || b.authors.join(' and ') === author.trim()) &&
        String(b.year) === year &&
        (pages === undefined || String(b.pages) === pages),
    );
    if (!fits) problems.push(`"${title}" is cited as by ${author ?? '?'}, ${year}, ${pages ?? '?'} pages`);
  }
  // A year or a page count outside a citation would be a fact the check above cannot tie to a book; a limit
  // the question set ("under 150 pages") is no fact about one.
  const rest = text.replace(CITED, ' ').replace(LIMIT, ' ');
  for (const [fact] of rest.matchAll(/\(\d{4}\b[^)]*\)|\b\d+ pages\b/g)) {
    problems.push(`${fact} is not cited with a catalog title`);
  }
  return problems;
}

describe('grounding of the answers', () => {
  it('finds an invented title, a wrong year and a wrong page count', () => {
    expect(ungrounded('"The Hobbit" by J. R. R. Tolkien (1937, 310 pages)')).toEqual([]);
    expect(ungrounded('"The Hobbit" (1937) and "Dune" by Frank Herbert (1965)')).toEqual([]);
    expect(ungrounded('You could try "The Silmarillion Part Two" by J. R. R. Tolkien (1980).')).toHaveLength(
      1,
    );
    expect(ungrounded('"The Hobbit" by J. R. R. Tolkien (1936)')).toHaveLength(1);
    expect(ungrounded('"The Hobbit" by J. R. R. Tolkien (1937, 300 pages)')).toHaveLength(1);
    expect(ungrounded('"The Hobbit" by C. S. Lewis (1937)')).toHaveLength(1);
    expect(ungrounded('a short book (1937), 120 pages')).toHaveLength(2);
    expect(ungrounded('No book about grief in the catalog is under 60 pages.')).toEqual([]);
  });

  it('every answer of the evaluation folder names only catalog books, with their own facts', async () => {
    const problems: string[] = [];
    let cited = 0;
    const questions = loadEvalSet();
    for (const question of questions) {
      const output = await askQuestion(question);
      if (!output.ok) problems.push(`${question.id}: ${output.error}`);
      output.turns.forEach((turn, i) => {
        cited += [...turn.text.matchAll(CITED)].length;
        for (const p of ungrounded(turn.text)) problems.push(`${question.id} turn ${i + 1}: ${p}`);
      });
    }
    expect(problems).toEqual([]);
    // The answers do cite books: the check above is not passed by answers that name none.
    expect(cited).toBeGreaterThan(questions.length);
  }, 120_000);
});
