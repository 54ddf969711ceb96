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
      const subjects = first.subjects.slice(0, 3).join(', ');
      return `${cite(first, true)}: ${sentence(first.description)}${subjects ? ` It is a book about ${subjects}.` : ''}`;
    }
    case 'recommend': {
      const more = rest.slice(0, 2).map((b) => cite(b));
      return `You could try ${cite(first, true)}: ${sentence(first.description)}${more.length ? ` You might also enjoy ${list(more)}.` : ''}`;
    }
    default: {
      const more = rest.slice(0, 3).map((b) => cite(b));
      return `The catalog has ${cite(first)}: ${sentence(first.description)}${more.length ? ` Also related: ${list(more)}.` : ''}`;
    }
  }
}
