import { defineNode } from '../../src/runtime/node.ts';
import { type Catalog, normalise } from './catalog.ts';
import { keywordsOf } from './rules.ts';
import { type ArchivistServices, type AskData, nodeIri, type SearchFilters } from './services.ts';
import type { Book, Classification, Memory, StrategyPlan } from './types.ts';

/** A short book, when the question asks for one without a previous book to compare with. */
const SHORT_PAGES = 250;
const LONG_PAGES = 400;
/** Books per author in a recommendation, and books by the author of X in "something like X". */
const PER_AUTHOR = 2;
const LIKE_AUTHOR_LIMIT = 1;
/** Title hits checked for the one a classified title means. */
const TITLE_CANDIDATES = 5;

/** The catalog book a classified title means, when the title search really found it. */
export function bookTitled(title: string, catalog: Catalog): Book | undefined {
  const asked = ` ${normalise(title)} `;
  if (asked.trim() === '') return undefined;
  // Fuzzy search always finds something; only a title that contains the asked one (or the reverse) counts.
  for (const hit of catalog.search(title, ['title']).slice(0, TITLE_CANDIDATES)) {
    const book = catalog.get(hit.id);
    const found = ` ${normalise(book?.title ?? '')} `;
    if (book && (found.includes(asked) || asked.includes(found))) return book;
  }
  return undefined;
}

function withoutWords(text: string, words: string): string {
  const drop = new Set(normalise(words).split(' '));
  return text
    .split(' ')
    .filter((w) => !drop.has(w))
    .join(' ');
}

/** The strategies to scatter over and the filters to rank with, for one classified question. */
export function planSearch(
  question: string,
  c: Classification,
  memory: Memory | undefined,
  catalog: Catalog,
): { strategies: StrategyPlan[]; filters: SearchFilters } {
  const strategies: StrategyPlan[] = [];
  const book = c.title === undefined ? undefined : bookTitled(c.title, catalog);
  const previous = memory?.bookId === undefined ? undefined : catalog.get(memory.bookId);
  // "Something like X" searches X's neighbours; a named book otherwise is the answer itself.
  const like = c.intent === 'recommend' ? book : undefined;
  const anchor = c.intent === 'recommend' ? undefined : book;
  const exclude: string[] = like ? [like.id] : [];
  const asked = [...new Set(c.subjects.flatMap((s) => catalog.subjectsIn(s)))];

  if (c.title !== undefined && !like) strategies.push({ strategy: 'title', query: c.title });
  if (c.author !== undefined) strategies.push({ strategy: 'author', query: c.author });
  else if (anchor?.authors[0] !== undefined)
    strategies.push({ strategy: 'author', query: anchor.authors[0] });
  const subjects = [...asked, ...c.subjects.filter((s) => catalog.subjectsIn(s).length === 0)];
  if (like) subjects.push(...like.subjects);
  if (anchor) subjects.push(...anchor.subjects);
  if (subjects.length > 0) strategies.push({ strategy: 'subject', query: [...new Set(subjects)].join(' ') });
  let keywords = c.keywords !== '' ? c.keywords : keywordsOf(question);
  if (like) keywords = withoutWords(keywords, like.title);
  // The named book is found by its title; other words of the question would only add noise.
  if (keywords !== '' && !anchor) strategies.push({ strategy: 'fulltext', query: keywords });
  if (strategies.length === 0 && previous) {
    strategies.push({ strategy: 'subject', query: previous.subjects.join(' ') });
  }
  if (strategies.length === 0) strategies.push({ strategy: 'fulltext', query: question });

  const followUp = c.shorter || c.longer || (c.author !== undefined && c.author === memory?.author);
  if (c.intent === 'recommend' && followUp && previous) exclude.push(previous.id);
  const reference = like ?? (c.intent === 'recommend' && followUp ? previous : undefined);
  const author = c.author !== undefined && (c.intent === 'recommend' || c.title === undefined);
  const filters: SearchFilters = {
    exclude,
    ...(author ? { author: c.author } : {}),
    ...(c.shorter ? { maxPages: (previous?.pages ?? SHORT_PAGES + 1) - 1 } : {}),
    ...(c.longer ? { minPages: (previous?.pages ?? LONG_PAGES - 1) + 1 } : {}),
    ...(anchor ? { anchor: anchor.id } : {}),
    ...(reference ? { like: reference.id } : {}),
    ...(like ? { likeAuthorLimit: LIKE_AUTHOR_LIMIT } : {}),
    ...(asked.length > 0 ? { subjects: asked } : {}),
    ...(c.intent === 'recommend' && !author ? { perAuthor: PER_AUTHOR } : {}),
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
