import { type Catalog, normalise } from './catalog.ts';
import type { SearchFilters } from './services.ts';
import { fitsForm } from './similarity.ts';
import { compareTitles } from './title-order.ts';
import { coverage, titleNames } from './topics.ts';
import type { Book, Candidate } from './types.ts';

/**
 * Subjects of books for young readers and of forms other than the novel: such books come after the
 * others unless the question or the `like` book asks for them (a "funny fantasy" is not a play).
 */
export const SPECIAL_KINDS: readonly string[] = [
  'children',
  'young adult',
  'drama',
  'poetry',
  'short stories',
  'essays',
];
/** The one book by the author of X in "something like X" comes after this many books by others. */
export const LIKE_AUTHOR_PLACE = 2;
/** A book close to a named book shares at least this many subjects with it… */
export const CLOSE_SHARED_SUBJECTS = 2;
/** …and at least this share of the named book's subject weight. */
export const CLOSE_LIKENESS = 0.5;

function authorKeys(book: Book): string[] {
  return book.authors.map(normalise);
}

function sameAuthor(a: Book, b: Book): boolean {
  const keys = authorKeys(b);
  return authorKeys(a).some((k) => keys.includes(k));
}

/**
 * The share of `reference`'s subject weight that `book` shares, from 0 to 1: rare subjects such as
 * "evolution" count for much more than common ones such as "classic".
 * @example
 * likeness(foundation, dune, catalog); // science fiction and politics of Dune's five subjects
 */
export function likeness(book: Book, reference: Book, catalog: Catalog): number {
  let total = 0;
  let shared = 0;
  for (const subject of reference.subjects) {
    const weight = catalog.subjectWeight(subject);
    total += weight;
    if (book.subjects.includes(subject)) shared += weight;
  }
  return total > 0 ? shared / total : 0;
}

/** True when `book` is by the named book's author or shares several of its telling subjects. */
export function closeTo(book: Book, named: Book, catalog: Catalog): boolean {
  if (sameAuthor(book, named)) return true;
  const shared = book.subjects.filter((s) => named.subjects.includes(s)).length;
  return shared >= CLOSE_SHARED_SUBJECTS && likeness(book, named, catalog) >= CLOSE_LIKENESS;
}

function byNamedBook(candidates: readonly Candidate[], named: Book, catalog: Catalog, size: number) {
  const first = candidates.find((c) => c.id === named.id) ?? { ...named, score: 0, strategies: [] };
  const rest = candidates
    .filter((c) => c.id !== named.id && closeTo(c, named, catalog))
    .map((c) => ({ c, author: sameAuthor(c, named) ? 1 : 0, like: likeness(c, named, catalog) }))
    .sort((a, b) => b.author - a.author || b.like - a.like || b.c.score - a.c.score)
    .map(({ c }) => c);
  return [first, ...rest].slice(0, size);
}

/** "Something like X" is first about other authors: X's author's book moves behind a few of theirs. */
function othersFirst(list: readonly Candidate[], like: Book): Candidate[] {
  const own = list.filter((c) => sameAuthor(c, like));
  const others = list.filter((c) => !sameAuthor(c, like));
  const at = Math.min(LIKE_AUTHOR_PLACE, others.length);
  return [...others.slice(0, at), ...own, ...others.slice(at)];
}

/**
 * Orders the filtered candidates into the shortlist with what the catalog knows of them.
 * A named book (`anchor`) comes first, followed only by its author's other books and books sharing
 * several telling subjects with it. Otherwise books having every asked subject come first, books of a
 * special kind (children's, plays, poems) only when asked for, then relevance plus likeness to the
 * `like` book decides; no author fills more than `perAuthor` places, and X's author gets
 * `likeAuthorLimit` places, behind other authors.
 */
export function shortlistOf(
  candidates: readonly Candidate[],
  filters: SearchFilters,
  catalog: Catalog,
  size: number,
): Candidate[] {
  const anchor = filters.anchor === undefined ? undefined : catalog.get(filters.anchor);
  if (anchor) return byNamedBook(candidates, anchor, catalog, size);
  const like = filters.like === undefined ? undefined : catalog.get(filters.like);
  const asked = filters.subjects ?? [];
  const wanted = new Set([...asked, ...(like?.subjects ?? [])]);
  const special = SPECIAL_KINDS.filter((s) => !wanted.has(s));
  const top = Math.max(0, ...candidates.map((c) => c.score)) || 1;
  // Books like `like` come scored by their likeness to it, form and readers included (see `similarity`).
  const ordered = candidates
    .map((c) => ({
      c,
      covered: coverage(c, filters).covered,
      fits: filters.form === undefined || fitsForm(c, filters.form) ? 1 : 0,
      titled: titleNames(c, filters),
      usual: like || !special.some((s) => c.subjects.includes(s)) ? 1 : 0,
      value: c.score / top,
    }))
    .sort(
      (a, b) =>
        b.covered - a.covered ||
        b.fits - a.fits ||
        b.titled - a.titled ||
        b.usual - a.usual ||
        b.value - a.value ||
        compareTitles(a.c.title, b.c.title),
    );

  // A book of none of the asked subjects is no answer to the question: fewer books rather than padding; and
  // where some books are about all of the topic, those are the answer.
  const whole = asked.length + (filters.themes ?? []).length + (filters.terms ?? []).length;
  const most = Math.max(0, ...ordered.map((o) => o.covered));
  const least = most === whole && whole > 0 ? whole : 1;
  const topical = most > 0 ? ordered.filter((o) => o.covered >= least) : ordered;
  // "Short novels about loneliness": novels, when there are any about it.
  const onTopic = topical.some((o) => o.fits) ? topical.filter((o) => o.fits) : topical;
  const cap = filters.perAuthor ?? Number.POSITIVE_INFINITY;
  const perAuthor = new Map<string, number>();
  const out: Candidate[] = [];
  for (const { c } of onTopic) {
    if (out.length >= size) break;
    const keys = authorKeys(c);
    if (keys.some((k) => (perAuthor.get(k) ?? 0) >= cap)) continue;
    if (like && filters.likeAuthorLimit !== undefined && sameAuthor(c, like)) {
      const taken = out.filter((o) => sameAuthor(o, like)).length;
      if (taken >= filters.likeAuthorLimit) continue;
    }
    for (const k of keys) perAuthor.set(k, (perAuthor.get(k) ?? 0) + 1);
    out.push(c);
  }
  return like && filters.likeAuthorLimit !== undefined ? othersFirst(out, like) : out;
}
