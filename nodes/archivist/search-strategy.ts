import { defineNode } from '../../src/runtime/node.ts';
import type { Catalog, SearchField } from './catalog.ts';
import { type ArchivistServices, nodeIri, type SearchData } from './services.ts';
import type { Hit, StrategyPlan } from './types.ts';

const FIELDS: Readonly<Record<StrategyPlan['strategy'], readonly SearchField[] | undefined>> = {
  title: ['title'],
  author: ['authors'],
  subject: ['subjects', 'description'],
  // Authors are found by the author strategy: a word that named no author ("a swift read") must not match one.
  fulltext: ['title', 'subjects', 'description'],
};

/** Most hits one strategy passes on to the ranker. */
export const HITS_PER_STRATEGY = 20;

/** Runs one search strategy over the catalog's minisearch index. */
export function searchBy(plan: StrategyPlan, catalog: Catalog): Hit[] {
  return catalog
    .search(plan.query, FIELDS[plan.strategy])
    .slice(0, HITS_PER_STRATEGY)
    .map((r) => ({ id: r.id, score: r.score, strategy: plan.strategy }));
}

function planOf(data: Record<string, unknown>): StrategyPlan | undefined {
  // A scatter child's data is `{ item, index }`; a direct call may pass the plan itself.
  for (const candidate of [data.item, data]) {
    const c = candidate as Partial<StrategyPlan> | undefined;
    if (c && typeof c.strategy === 'string' && typeof c.query === 'string') {
      return { strategy: c.strategy, query: c.query };
    }
  }
  return undefined;
}

/** The scatter body: searches the catalog with one strategy and leaves its hits as the child's result. */
export const searchStrategy = defineNode<'searched', ArchivistServices>({
  id: nodeIri('search-strategy'),
  outputs: ['searched'],
  description: 'Searches the catalog with one strategy.',
  run(item, ctx) {
    const plan = planOf(item.data);
    if (!plan)
      throw new Error('search-strategy needs { strategy, query } in its data; scatter over /strategies');
    const hits = searchBy(plan, ctx.services.catalog);
    // The scatter hands `data.result` to the gather.
    (item.data as SearchData).result = hits;
    return { output: 'searched', reason: `${plan.strategy} "${plan.query}": ${hits.length} hits` };
  },
});
