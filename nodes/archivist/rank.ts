import { defineNode } from '../../src/runtime/node.ts';
import type { Catalog } from './catalog.ts';
import { normalise } from './catalog.ts';
import { fromOrigin } from './origin.ts';
import { shortlistOf } from './rerank.ts';
import { type ArchivistServices, type AskData, nodeIri, type SearchFilters } from './services.ts';
import { compareTitles } from './title-order.ts';
import type { Book, Candidate, Hit } from './types.ts';

/** How much each strategy's best hit counts towards a book's merged score. */
export const STRATEGY_WEIGHTS: Readonly<Record<Hit['strategy'], number>> = {
  title: 3,
  author: 2.5,
  subject: 1.5,
  fulltext: 1,
};

/** Books on the shortlist. */
export const SHORTLIST_SIZE = 5;

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
 * Merges the strategies' hits: each strategy's scores are scaled to its best hit and weighted, a book
 * found by several strategies adds them up; then the filters apply and `shortlistOf` re-ranks the rest
 * with catalog facts (the named book, asked subjects, likeness, one author not filling the list).
 */
export function rankHits(hits: readonly Hit[], filters: SearchFilters, catalog: Catalog): Candidate[] {
  if (filters.list) {
    return filters.list.flatMap((id) => {
      const book = catalog.get(id);
      return book && meets(book, filters) ? [{ ...book, score: 1, strategies: [] }] : [];
    });
  }
  const best = new Map<string, number>();
  for (const h of hits) best.set(h.strategy, Math.max(best.get(h.strategy) ?? 0, h.score));
  const merged = new Map<string, { score: number; strategies: Set<string> }>();
  for (const h of hits) {
    const entry = merged.get(h.id) ?? { score: 0, strategies: new Set<string>() };
    entry.score += (h.score / (best.get(h.strategy) || 1)) * STRATEGY_WEIGHTS[h.strategy];
    entry.strategies.add(h.strategy);
    merged.set(h.id, entry);
  }
  const author = filters.author === undefined ? undefined : normalise(filters.author);
  const out: Candidate[] = [];
  for (const [id, { score, strategies }] of merged) {
    const book = catalog.get(id);
    if (!book || filters.exclude.includes(id)) continue;
    if (author !== undefined && !book.authors.some((a) => normalise(a) === author)) continue;
    if (!meets(book, filters)) continue;
    out.push({ ...book, score: Math.round(score * 1000) / 1000, strategies: [...strategies].sort() });
  }
  // Hard limits leave few of the search's hits: every other book of the asked subjects may qualify too.
  const limited = [filters.minYear, filters.maxYear, filters.minPages, filters.maxPages, filters.origin].some(
    (v) => v !== undefined,
  );
  const asked = filters.subjects ?? [];
  // Without asked subjects, only a search that found too few is widened ("novels from the 1920s").
  const few = out.length < SHORTLIST_SIZE;
  if (limited && (asked.length > 0 || filters.origin !== undefined || few)) {
    for (const book of catalog.books) {
      if (merged.has(book.id) || filters.exclude.includes(book.id) || !meets(book, filters)) continue;
      if (author !== undefined && !book.authors.some((a) => normalise(a) === author)) continue;
      if (asked.length > 0 && !asked.some((s) => book.subjects.includes(s))) continue;
      out.push({ ...book, score: 0, strategies: [] });
    }
  }
  out.sort((a, b) => b.score - a.score || compareTitles(a.title, b.title));
  return shortlistOf(out, filters, catalog, SHORTLIST_SIZE);
}

/** Whether `book` meets the hard limits of `filters`: pages, years, unwanted authors. */
export function meets(book: Book, filters: SearchFilters): boolean {
  if (filters.maxPages !== undefined && book.pages > filters.maxPages) return false;
  if (filters.minPages !== undefined && book.pages < filters.minPages) return false;
  if (filters.maxYear !== undefined && book.year > filters.maxYear) return false;
  if (filters.minYear !== undefined && book.year < filters.minYear) return false;
  if (filters.origin && !fromOrigin(book, filters.origin)) return false;
  const unwanted = (filters.notAuthors ?? []).map(normalise);
  return !book.authors.some((a) => unwanted.includes(normalise(a)));
}

/** The node after the gather: ranks the merged candidates into the shortlist. */
export const rank = defineNode<'ranked' | 'empty', ArchivistServices>({
  id: nodeIri('rank'),
  outputs: ['ranked', 'empty'],
  description: 'Merges and ranks the candidates of every strategy.',
  run(item, ctx) {
    const data = item.data as unknown as AskData;
    const shortlist = rankHits(hitsIn(data.results), data.filters ?? { exclude: [] }, ctx.services.catalog);
    data.shortlist = shortlist;
    if (shortlist.length === 0) return { output: 'empty', reason: 'no book matches' };
    return { output: 'ranked', reason: `${shortlist.length} candidates, best "${shortlist[0]?.title}"` };
  },
});
