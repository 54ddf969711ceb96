import { defineNode } from '../../src/runtime/node.ts';
import type { Catalog } from './catalog.ts';
import { keywordsOf } from './rules.ts';
import { type ArchivistServices, type AskData, nodeIri, type SearchFilters } from './services.ts';
import type { Classification, Memory, StrategyPlan } from './types.ts';

/** A short book, when the question asks for one without a previous book to compare with. */
const SHORT_PAGES = 250;
const LONG_PAGES = 400;

/** The strategies to scatter over and the filters to rank with, for one classified question. */
export function planSearch(
  question: string,
  c: Classification,
  memory: Memory | undefined,
  catalog: Catalog,
): { strategies: StrategyPlan[]; filters: SearchFilters } {
  const strategies: StrategyPlan[] = [];
  const named = c.title === undefined ? undefined : catalog.search(c.title, ['title'])[0];
  const book = named === undefined ? undefined : catalog.get(named.id);
  const previous = memory?.bookId === undefined ? undefined : catalog.get(memory.bookId);
  const exclude: string[] = [];

  if (c.title !== undefined) strategies.push({ strategy: 'title', query: c.title });
  if (c.author !== undefined) strategies.push({ strategy: 'author', query: c.author });
  const subjects = [...c.subjects];
  if (c.intent === 'recommend' && book) {
    // "Something like X": X's subjects find its neighbours, and X itself is not a recommendation.
    subjects.push(...book.subjects);
    exclude.push(book.id);
  }
  if (subjects.length > 0) strategies.push({ strategy: 'subject', query: [...new Set(subjects)].join(' ') });
  const keywords = c.keywords !== '' ? c.keywords : keywordsOf(question);
  if (keywords !== '') strategies.push({ strategy: 'fulltext', query: keywords });
  if (strategies.length === 0 && previous) {
    strategies.push({ strategy: 'subject', query: previous.subjects.join(' ') });
  }
  if (strategies.length === 0) strategies.push({ strategy: 'fulltext', query: question });

  const followUp = c.shorter || c.longer || (c.author !== undefined && c.author === memory?.author);
  if (c.intent === 'recommend' && followUp && previous) exclude.push(previous.id);
  const filters: SearchFilters = {
    exclude,
    ...(c.author !== undefined && (c.intent === 'recommend' || c.title === undefined)
      ? { author: c.author }
      : {}),
    ...(c.shorter ? { maxPages: (previous?.pages ?? SHORT_PAGES + 1) - 1 } : {}),
    ...(c.longer ? { minPages: (previous?.pages ?? LONG_PAGES - 1) + 1 } : {}),
  };
  return { strategies, filters };
}

/** Plans the search: one scatter child per strategy (title, author, subject, full text). */
export const planSearchNode = defineNode<'planned', ArchivistServices>({
  id: nodeIri('plan-search'),
  outputs: ['planned'],
  description: 'Chooses the search strategies and filters for the question.',
  run(item, ctx) {
    const data = item.data as unknown as AskData;
    if (!data.classification) throw new Error('plan-search needs a classification; route classify before it');
    const plan = planSearch(data.question, data.classification, data.memory, ctx.services.catalog);
    data.strategies = plan.strategies;
    data.filters = plan.filters;
    return { output: 'planned', reason: plan.strategies.map((s) => s.strategy).join(', ') };
  },
});
