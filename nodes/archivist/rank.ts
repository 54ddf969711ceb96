import { defineNode } from '../../src/runtime/node.ts';
import type { Catalog } from './catalog.ts';
import { normalise } from './catalog.ts';
import { meets } from './limits.ts';
import { shortlistOf } from './rerank.ts';
import { seriesOpeners, seriesOrdered } from './series.ts';
import { type ArchivistServices, type AskData, nodeIri, type SearchFilters } from './services.ts';
import { similarity } from './similarity.ts';
import { compareTitles } from './title-order.ts';
import { coverage } from './topics.ts';
import type { Book, Candidate, Hit } from './types.ts';
import { leavesUnmet, relaxLimits } from './unmet.ts';

/** How much each strategy's best hit counts towards a book's merged score. */
export const STRATEGY_WEIGHTS: Readonly<Record<Hit['strategy'], number>> = {
  title: 3,
  author: 2.5,
  subject: 1.5,
  fulltext: 1,
};

/** Books on the shortlist. */
export const SHORTLIST_SIZE = 5;

export { meets } from './limits.ts';

/** Every hit found anywhere in the gathered results, whatever shape the reducer gave them. */
export function hitsIn(results: unknown, depth = 0): Hit[] {
  if (depth > 6 || results === null || typeof results !== 'object') return [];
  if (Array.isArray(results)) return results.flatMap((r) => hitsIn(r, depth + 1));
  const r = results as Record<string, unknown>;
  if (typeof r.id === 'string' && typeof r.score === 'number' && typeof r.strategy === 'string') {
    return [r as unknown as Hit];
  }
  return Object.values(r).flatMap((v) => hitsIn(v, depth + 1));
}

/**
 * The shortlist: for "something like X", every eligible book by how alike it is to X; otherwise the
 * strategies' hits merged. Then the filters apply, a series is offered by its first book the reader has not
 * had, `shortlistOf` re-ranks with catalog facts (the named book, asked subjects, one author not filling the
 * list), and books of one series come in series order.
 */
export function rankHits(hits: readonly Hit[], filters: SearchFilters, catalog: Catalog): Candidate[] {
  if (filters.list) {
    return filters.list.flatMap((id) => {
      const book = catalog.get(id);
      return book && meets(book, filters) ? [{ ...book, score: 1, strategies: [] }] : [];
    });
  }
  const author = filters.author === undefined ? undefined : normalise(filters.author);
  const byAuthor = (book: Book) => author === undefined || book.authors.some((a) => normalise(a) === author);
  const like = filters.like === undefined ? undefined : catalog.get(filters.like);
  // Books the reader has had: those excluded, and the books of the `like` book's series before it.
  const had = (book: Book) =>
    filters.exclude.includes(book.id) ||
    book.id === like?.id ||
    (like?.series !== undefined &&
      book.series === like.series &&
      (book.seriesNumber ?? 0) < (like.seriesNumber ?? 0));
  const eligible = (book: Book) => !had(book) && byAuthor(book) && meets(book, filters);
  const out = like ? alike(like, eligible, catalog) : merged(hits, filters, eligible, catalog);
  out.sort((a, b) => b.score - a.score || compareTitles(a.title, b.title));
  // A series is offered by its first book the reader has not had; a named book is the answer as it is.
  const offered =
    filters.anchor === undefined
      ? seriesOpeners(
          out,
          (series) => catalog.books.filter((b) => b.series === series),
          // "Funny books about death": Mort, though the series starts with a book about something else.
          (book, place) =>
            eligible(book) && coverage(book, filters).covered >= coverage(place, filters).covered,
          (book, place) => ({ ...book, score: place.score, strategies: place.strategies }),
        )
      : out;
  const shortlist = shortlistOf(offered, filters, catalog, SHORTLIST_SIZE);
  // The named book stays first; the books after it come in series order.
  if (filters.anchor === undefined) return seriesOrdered(shortlist);
  const [named, ...rest] = shortlist;
  return named === undefined ? [] : [named, ...seriesOrdered(rest)];
}

/** Every eligible book, scored by how alike it is to `like` (see `similarity`): what it is, not its words. */
function alike(like: Book, eligible: (book: Book) => boolean, catalog: Catalog): Candidate[] {
  return catalog.books
    .filter(eligible)
    .map((book) => ({
      ...book,
      score: Math.round(similarity(book, like, catalog) * 1000) / 1000,
      strategies: ['similar'],
    }))
    .filter((c) => c.score > 0);
}

/**
 * The strategies' hits merged: each strategy's scores are scaled to its best hit and weighted, a book found
 * by several strategies adds them up; a question with hard limits also takes in every other eligible book of
 * its asked subjects.
 */
function merged(
  hits: readonly Hit[],
  filters: SearchFilters,
  eligible: (book: Book) => boolean,
  catalog: Catalog,
): Candidate[] {
  const best = new Map<string, number>();
  for (const h of hits) best.set(h.strategy, Math.max(best.get(h.strategy) ?? 0, h.score));
  const found = new Map<string, { score: number; strategies: Set<string> }>();
  for (const h of hits) {
    const entry = found.get(h.id) ?? { score: 0, strategies: new Set<string>() };
    entry.score += (h.score / (best.get(h.strategy) || 1)) * STRATEGY_WEIGHTS[h.strategy];
    entry.strategies.add(h.strategy);
    found.set(h.id, entry);
  }
  const out: Candidate[] = [];
  for (const [id, { score, strategies }] of found) {
    const book = catalog.get(id);
    if (!book || !eligible(book)) continue;
    out.push({ ...book, score: Math.round(score * 1000) / 1000, strategies: [...strategies].sort() });
  }
  // Hard limits leave few of the search's hits: every other book of the asked subjects may qualify too.
  const limited = [filters.minYear, filters.maxYear, filters.minPages, filters.maxPages, filters.origin].some(
    (v) => v !== undefined,
  );
  const asked = filters.subjects ?? [];
  // Without asked subjects, only a search that found too few is widened ("novels from the 1920s").
  const few = out.length < SHORTLIST_SIZE;
  const widen = limited && (asked.length > 0 || filters.origin !== undefined || few);
  for (const book of catalog.books) {
    if (found.has(book.id) || !eligible(book)) continue;
    // Every eligible book about the whole topic is a candidate, found by the search or not.
    const { covered, whole } = coverage(book, filters);
    const all = whole > 0 && covered === whole;
    if (!all && !(widen && (asked.length === 0 || asked.some((s) => book.subjects.includes(s))))) continue;
    out.push({ ...book, score: 0, strategies: [] });
  }
  return out;
}

/** The node after the gather: ranks the merged candidates into the shortlist. */
export const rank = defineNode<'ranked' | 'empty', ArchivistServices>({
  id: nodeIri('rank'),
  outputs: ['ranked', 'empty'],
  description: 'Merges and ranks the candidates of every strategy.',
  run(item, ctx) {
    const data = item.data as unknown as AskData;
    const filters = data.filters ?? { exclude: [] };
    const catalog = ctx.services.catalog;
    let shortlist = rankHits(hitsIn(data.results), filters, catalog);
    // No book meets every part of the question: the nearest ones, and which part gave way.
    const relaxed = leavesUnmet(shortlist, filters) ? relaxLimits(filters, catalog, filters.list) : undefined;
    if (relaxed) {
      shortlist = seriesOrdered(
        relaxed.books.slice(0, SHORTLIST_SIZE).map((b) => ({ ...b, score: 0, strategies: [] })),
      );
      data.unmet = relaxed.unmet;
    }
    data.shortlist = shortlist;
    if (shortlist.length === 0) return { output: 'empty', reason: 'no book matches' };
    const note = relaxed
      ? `, none meeting ${relaxed.unmet.partTopic ? 'the whole topic' : relaxed.unmet.limits.join(' and ')}`
      : '';
    return {
      output: 'ranked',
      reason: `${shortlist.length} candidates, best "${shortlist[0]?.title}"${note}`,
    };
  },
});
