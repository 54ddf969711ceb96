import { listAnswer } from './fact-answer.ts';
import type { Book, Intent } from './types.ts';

/** How a template answer reads: a model-like answer, or the plain salvage answer. */
export type TemplateStyle = 'model' | 'salvage';

/** `"Title" by Author (year)`, the form every answer names a book in. */
export function cite(book: Book, pages = false): string {
  const who = book.authors.join(' and ');
  return `"${book.title}" by ${who} (${book.year}${pages ? `, ${book.pages} pages` : ''})`;
}

function list(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** `"Title" (year)`, for a book whose author the sentence already names. */
function citeTitle(book: Book): string {
  return `"${book.title}" (${book.year})`;
}

/** The books after the first of a find answer: its author's other books, then related ones. */
function findExtras(first: Book, rest: readonly Book[]): string {
  const author = first.authors.join(' and ');
  const own = rest.filter((b) => b.authors.join(' and ') === author);
  const others = rest.filter((b) => !own.includes(b));
  const shown = [...own, ...others].slice(0, FIND_EXTRAS);
  const ownShown = shown.filter((b) => own.includes(b));
  const othersShown = shown.filter((b) => others.includes(b));
  const parts: string[] = [];
  // An author's books read best in the order they came out (a series in its own order).
  const ordered = [...ownShown].sort((a, b) =>
    a.series !== undefined && a.series === b.series
      ? (a.seriesNumber ?? 0) - (b.seriesNumber ?? 0)
      : a.year - b.year,
  );
  if (ordered.length > 0) parts.push(` Also by ${author}: ${list(ordered.map(citeTitle))}.`);
  if (othersShown.length > 0) {
    parts.push(
      ` ${ownShown.length > 0 ? 'Related' : 'Also related'}: ${list(othersShown.map((b) => cite(b)))}.`,
    );
  }
  return parts.join('');
}

/** Books a find answer names after the first. */
const FIND_EXTRAS = 3;

function sentence(text: string): string {
  const t = text.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

/**
 * A prose answer naming only the given books, in rank order: the offline model's composition, and the
 * deterministic salvage answer.
 * @example
 * templateAnswer('recommend', [dune, hyperion], 'salvage');
 */
export function templateAnswer(intent: Intent, books: readonly Book[], style: TemplateStyle): string {
  const [first, ...rest] = books;
  if (!first) return 'I could not find a book in the catalog that matches your question.';
  if (style === 'salvage') {
    const lead =
      intent === 'describe'
        ? `From the catalog: ${cite(first, true)}. ${sentence(first.description)}`
        : `From the catalog, the closest matches are ${list(books.map((b) => cite(b)))}.`;
    return `${lead} (This answer was assembled directly from the catalog.)`;
  }
  switch (intent) {
    case 'describe': {
      const subjects = list(first.subjects.slice(0, 3));
      return `${cite(first, true)}: ${sentence(first.description)}${subjects ? ` Subjects: ${subjects}.` : ''}`;
    }
    case 'recommend': {
      const more = rest.slice(0, 2).map((b) => cite(b));
      return `You could try ${cite(first, true)}: ${sentence(first.description)}${more.length ? ` You might also enjoy ${list(more)}.` : ''}`;
    }
    default:
      if (books.length > 1) {
        const whole = listAnswer(books);
        if (whole !== undefined) return whole;
      }
      return `The catalog has ${cite(first)}: ${sentence(first.description)}${findExtras(first, rest)}`;
  }
}
