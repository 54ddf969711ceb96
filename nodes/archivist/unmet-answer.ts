/**
 * The answers that say what the catalog cannot give: a part of the question no book meets (with the nearest
 * books that meet the rest), a topic no book is about, a kind of book the catalog holds none of. Stated from
 * the catalog, whatever a model composed. Pure.
 */
import type { SearchFilters } from './services.ts';
import { cite } from './templates.ts';
import type { Book } from './types.ts';
import type { Limit, Unmet } from './unmet.ts';

function list(items: readonly string[], and = 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${and} ${items.at(-1)}`;
}

/** A year range in words: "from the 1920s", "from before 1960", "from after 2010", "from 1950 to 1965". */
function years(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) {
    if (max - min === 9 && min % 10 === 0) return `from the ${min}s`;
    if (max - min === 99 && min % 100 === 1) return `from the ${ordinal(Math.ceil(max / 100))} century`;
    return min === max ? `from ${min}` : `from ${min} to ${max}`;
  }
  if (max !== undefined) return `from before ${max + 1}`;
  return `from after ${(min ?? 0) - 1}`;
}

function ordinal(n: number): string {
  const suffix =
    n % 10 === 1 && n !== 11
      ? 'st'
      : n % 10 === 2 && n !== 12
        ? 'nd'
        : n % 10 === 3 && n !== 13
          ? 'rd'
          : 'th';
  return `${n}${suffix}`;
}

/** One limit of `filters` in words, as the question asked it. */
export function limitWords(filters: SearchFilters, limit: Limit): string {
  switch (limit) {
    case 'pages': {
      const { minPages: min, maxPages: max } = filters;
      if (min !== undefined && max !== undefined) return `between ${min} and ${max} pages long`;
      return max !== undefined ? `under ${max + 1} pages` : `over ${(min ?? 1) - 1} pages`;
    }
    case 'years':
      return years(filters.minYear, filters.maxYear);
    case 'origin': {
      const o = filters.origin ?? {};
      const parts: string[] = [];
      if (o.languageOnly && o.languages) parts.push(`written in ${list(o.languages, 'or')}`);
      else if (o.countries) parts.push(`from ${list(o.countries, 'or')}`);
      else if (o.languages) parts.push(`written in ${list(o.languages, 'or')}`);
      if (o.audiences)
        parts.push(
          `for ${list(
            o.audiences.map((a) => (a === 'young adult' ? 'young adults' : a)),
            'or',
          )}`,
        );
      return list(parts);
    }
    case 'notAuthors':
      return `not by ${list(filters.notAuthors ?? [], 'or')}`;
    case 'author':
      return `by ${filters.author}`;
  }
}

/** What the question asks about, in words: "about grief", "like Solaris", or nothing. */
function topicWords(filters: SearchFilters, scope: string | undefined, like: string | undefined): string {
  if (scope !== undefined) return scope;
  if (filters.topic !== undefined) return `about ${filters.topic}`;
  if (like !== undefined && (filters.subjects ?? []).length === 0) return `like ${like}`;
  const parts = [...(filters.subjects ?? []), ...(filters.terms ?? [])];
  return parts.length === 0 ? '' : `about ${list(parts)}`;
}

/**
 * The answer to a question no book meets every part of: which part could not be met, then the nearest books.
 * `scope` names the books a list was of ("by George Orwell"), `like` the title of the book others were sought
 * like (unquoted: it is not offered).
 * @example
 * unmetAnswer(filters, { limits: ['pages'] }, books) // 'No book about grief in the catalog is under 60 pages. The nearest: …'
 */
export function unmetAnswer(
  filters: SearchFilters,
  unmet: Unmet,
  books: readonly Book[],
  scope?: string,
  like?: string,
): string {
  const pages = unmet.limits.includes('pages');
  const cited = list(books.map((b) => cite(b, pages)));
  const topic = topicWords(filters, scope, like);
  if (unmet.partTopic) {
    const parts = [...(filters.subjects ?? []), ...(filters.terms ?? [])];
    return `No book in the catalog is about ${list(parts)} together. The nearest are about part of it: ${cited}.`;
  }
  const what = list(unmet.limits.map((l) => limitWords(filters, l)));
  const lead = `No ${books.length === 0 && filters.exclude.length > 0 ? 'other ' : ''}book ${topic === '' ? '' : `${topic} `}in the catalog is ${what}.`;
  if (books.length === 0) return lead;
  return `${lead} The nearest${topic === '' ? '' : ` ${topic}`}: ${cited}.`;
}

/** The answer to a topic no book is about, or a kind of book the catalog holds none of. */
export function lackingAnswer(filters: SearchFilters): string | undefined {
  const lacking = filters.lacking;
  if (lacking?.kind !== undefined) {
    return `The catalog holds no ${lacking.kind}: it holds novels, plays, poetry and non-fiction to read. Ask me for a subject, a title or an author.`;
  }
  if (lacking?.words !== undefined && filters.topic !== undefined) {
    return `The catalog holds no books about ${filters.topic}: none of its books mentions ${list(lacking.words, 'or')}.`;
  }
  return undefined;
}
