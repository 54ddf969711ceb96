import { defineNode } from '../../src/runtime/node.ts';
import { type Catalog, normalise } from './catalog.ts';
import { asksOtherAuthor, asksSameAuthor, followUpOf } from './follow-up.ts';
import { likePhraseOf, likeTargetOf } from './like-frame.ts';
import { byPublication, listOrMiss } from './list-plan.ts';
import { notRecordedIn } from './not-recorded.ts';
import { type Reading, readQuestion } from './reading.ts';
import { refined } from './request.ts';
import { classifyByRules, keywordsOf } from './rules.ts';
import { type ArchivistServices, type AskData, nodeIri, type SearchFilters } from './services.ts';
import { formAsked } from './similarity.ts';
import { topicFilters, topicOf } from './topics.ts';
import type { Book, Classification, Intent, Memory, StrategyPlan } from './types.ts';
import type { Limit } from './unmet.ts';

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

/** What plan-search decides: the strategies, the filters, and the intent when the plan changes it. */
export interface SearchPlan {
  readonly strategies: StrategyPlan[];
  readonly filters: SearchFilters;
  /** A whole list is found, whatever the wording ("anything by Calvino"). */
  readonly intent?: Intent;
}

/** The strategies to scatter over and the filters to rank with, for one classified question. */
export function planSearch(
  question: string,
  classified: Classification,
  memory: Memory | undefined,
  catalog: Catalog,
  year: number = new Date().getFullYear(),
): SearchPlan {
  const strategies: StrategyPlan[] = [];
  const follow = followUpOf(question, memory, catalog);
  // "books like Sapiens", "I loved Norwegian Wood": the book to find others like, whatever the classifier made of it.
  const phrase = follow ? undefined : likePhraseOf(question);
  const likeTarget = phrase === undefined ? undefined : likeTargetOf(phrase, catalog);
  const liked = likeTarget?.book;
  const titled =
    follow?.book ??
    follow?.like ??
    liked ??
    (classified.title === undefined ? undefined : bookTitled(classified.title, catalog));
  const reading = readQuestion(question, catalog, titled, year);
  const book = reading.placed ? reading.book : (titled ?? reading.book);
  const unwanted = new Set([...reading.notAuthors, ...(follow?.notAuthors ?? [])]);
  const { author: _asked, ...unnamed } = classified;
  let c: Classification = {
    ...(classified.author !== undefined && unwanted.has(classified.author) ? unnamed : classified),
    ...(follow?.like || liked ? { intent: 'recommend' as const } : {}),
    ...(follow?.book && classified.intent === 'recommend' ? { intent: 'describe' as const } : {}),
    ...(book ? { title: book.title } : {}),
    ...(classified.author === undefined && reading.author && !unwanted.has(reading.author)
      ? { author: reading.author }
      : {}),
  };
  const notAuthors = [...reading.notAuthors, ...(follow?.notAuthors ?? [])];
  const own = {
    ...(follow?.minYear === undefined ? {} : { minYear: follow.minYear }),
    ...(follow?.maxYear === undefined ? {} : { maxYear: follow.maxYear }),
    ...reading.constraints,
    ...(notAuthors.length > 0 ? { notAuthors } : {}),
    ...(Object.keys(reading.origin).length > 0 ? { origin: reading.origin } : {}),
    ...(follow?.origin ? { origin: follow.origin } : {}),
  };
  // A follow-up that only refines the request in force ("something shorter", "older ones", "newer than
  // that") keeps every constraint of it; one that names something of its own starts a new request.
  const refining =
    memory?.request !== undefined &&
    follow?.book === undefined &&
    follow?.within === undefined &&
    !follow?.again &&
    !namesOwnTopic(question, classified, reading, liked, catalog) &&
    (follow?.like !== undefined ||
      classified.shorter ||
      classified.longer ||
      asksSameAuthor(question) ||
      Object.keys(own).length > 0);
  const started = memory?.anchor === undefined ? undefined : catalog.get(memory.anchor);
  const current = memory?.bookId === undefined ? undefined : catalog.get(memory.bookId);
  const limits: Partial<SearchFilters> = refining
    ? refined(memory, { limits: own, otherAuthor: asksOtherAuthor(question) }, [started, current])
    : own;
  if (refining && limits.author !== undefined && c.author === undefined) c = { ...c, author: limits.author };
  // "newer than that" after an author's books: that author's books, narrowed; the list is not a recommendation.
  if (refining && limits.author !== undefined && limits.like === undefined) {
    const { author: whose, ...narrowing } = limits;
    const length = {
      ...(c.shorter && current ? { maxPages: current.pages - 1 } : {}),
      ...(c.longer && current ? { minPages: current.pages + 1 } : {}),
    };
    const list = [...catalog.byAuthor(whose)].sort(byPublication).map((b) => b.id);
    return {
      strategies: [{ strategy: 'author', query: whose }],
      filters: { exclude: [], list, ...narrowing, ...length, narrowed: true },
      intent: 'find',
    };
  }
  if (follow?.within) {
    return {
      strategies: [{ strategy: 'title', query: question }],
      filters: { exclude: [], list: follow.within, ...limits },
    };
  }
  if (follow?.again && memory?.question !== undefined) {
    const repeated = repeatPlan(memory.question, follow.exclude, catalog, year);
    if (repeated) return repeated;
  }
  // "more like this" with nothing before it refers to no book: no answer rather than an arbitrary one.
  if (
    !memory &&
    c.title === undefined &&
    c.author === undefined &&
    c.subjects.length === 0 &&
    onlyRefers(question)
  )
    return { strategies: [{ strategy: 'title', query: question }], filters: { exclude: [], list: [] } };
  // "a book by a woman": what the catalog does not record picks no books; "award-winning fantasy" is said so.
  const found = notRecordedIn(question);
  // "Booker Prize winners" asks for nothing else: no list can stand in for what the catalog lacks.
  const alone = found !== undefined && !titled && reading.author === undefined && c.subjects.length === 0;
  const unrecorded = found && alone ? { ...found, hard: true } : found;
  if (unrecorded?.hard) {
    return {
      strategies: [{ strategy: 'fulltext', query: question }],
      filters: { exclude: [], list: [], unrecorded },
    };
  }
  const asked = [...new Set(c.subjects.flatMap((s) => catalog.subjectsIn(s)))];
  // "a book about Noah's ark", "a cookbook": what no book of the catalog is about, said before anything else.
  const about =
    follow?.book || follow?.like || liked ? {} : topicFilters(question, reading.rest, asked, catalog);
  if (about.none) {
    const { none: _none, ...lacking } = about;
    return {
      strategies: [{ strategy: 'fulltext', query: question }],
      filters: { exclude: [], list: [], ...lacking, ...limits },
    };
  }
  const special = follow ? undefined : listOrMiss(question, c, reading, memory, catalog, limits);
  if (special) return unrecorded ? { ...special, filters: { ...special.filters, unrecorded } } : special;
  const previous = memory?.bookId === undefined ? undefined : catalog.get(memory.bookId);
  // "Something like X" searches X's neighbours; a named book otherwise is the answer itself.
  const like = c.intent === 'recommend' ? book : undefined;
  const anchor = c.intent === 'recommend' ? undefined : book;
  const exclude: string[] = [
    ...(like ? [like.id] : []),
    // The book the reader started from is never offered back while the request it began is in force, nor
    // a book already shown in the conversation.
    ...(refining && started ? [started.id] : []),
    ...(refining ? (memory?.shown ?? []) : []),
    // "books like Harry Potter": none of the series' own books.
    ...(likeTarget?.series ?? []).map((b) => b.id),
    ...(follow?.exclude ?? []),
    ...reading.notBooks,
  ];
  // "short books about grief": the topic's subjects, themes and words; a book named is its own topic.
  const { none: _none, subjects: topical, ...topic } = like || anchor ? { subjects: asked } : about;

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

  const form = formAsked(question);
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
    ...(follow?.book ? { picked: true } : {}),
    ...(reference ? { like: reference.id } : {}),
    ...(like && !author ? { likeAuthorLimit: LIKE_AUTHOR_LIMIT } : {}),
    ...(topical !== undefined && topical.length > 0 ? { subjects: topical } : {}),
    ...topic,
    ...(c.intent === 'recommend' && !author ? { perAuthor: PER_AUTHOR } : {}),
    ...(unrecorded ? { unrecorded } : {}),
    ...(form && !like ? { form } : {}),
    ...limits,
  };
  const keep = keptLimits(follow);
  return { strategies, filters: keep.length > 0 ? { ...filters, keep } : filters };
}

/** Whether `question` names a book, an author, a series, a subject or a topic of its own. */
function namesOwnTopic(
  question: string,
  classified: Classification,
  reading: Reading,
  liked: Book | undefined,
  catalog: Catalog,
): boolean {
  return (
    liked !== undefined ||
    catalog.titlesIn(question).length > 0 ||
    reading.book !== undefined ||
    reading.series !== undefined ||
    reading.missing !== undefined ||
    (reading.author !== undefined && !asksSameAuthor(question)) ||
    classified.subjects.length > 0 ||
    topicOf(reading.rest, catalog) !== undefined
  );
}

/**
 * The limits a follow-up asks for and nothing else that have no near books ("from the same country", "by
 * a different author"): no book against them is offered as the nearest.
 */
function keptLimits(follow: ReturnType<typeof followUpOf>): Limit[] {
  // A length or a period has books near it, said for what they are; another country or author has none.
  return [
    ...(follow?.origin ? ['origin' as const] : []),
    ...(follow?.notAuthors ? ['notAuthors' as const] : []),
  ];
}

/**
 * The plan of `previous` (the question that found the last list) again, without the books already shown:
 * "another one". Undefined when nothing would be left.
 */
function repeatPlan(
  previous: string,
  shown: readonly string[],
  catalog: Catalog,
  year: number,
): SearchPlan | undefined {
  const plan = planSearch(previous, classifyByRules(previous, undefined, catalog), undefined, catalog, year);
  const { anchor: _named, ...filters } = plan.filters;
  const list = filters.list?.filter((id) => !shown.includes(id));
  if (list !== undefined && list.length === 0) return undefined;
  return {
    ...plan,
    filters: {
      ...filters,
      exclude: [...new Set([...filters.exclude, ...shown])],
      ...(list ? { list } : {}),
      again: true,
    },
  };
}

/** Words that point back at an earlier answer ("more like this", "another one", "the second one"). */
const REFERRING = new Set(
  'more another again similar other others ones one it this that these those them same else first second third last next'.split(
    ' ',
  ),
);

/** Whether `question` says nothing but that it refers to an earlier answer. */
function onlyRefers(question: string): boolean {
  const words = normalise(question).split(' ');
  if (!words.some((w) => REFERRING.has(w))) return false;
  return keywordsOf(question)
    .split(' ')
    .every((w) => w === '' || REFERRING.has(w));
}

/** Plans the search: one scatter child per strategy (title, author, subject, full text). */
export const planSearchNode = defineNode<'planned', ArchivistServices>({
  id: nodeIri('plan-search'),
  outputs: ['planned'],
  description: 'Chooses the search strategies and filters for the question.',
  run(item, ctx) {
    const data = item.data as unknown as AskData;
    if (!data.classification) throw new Error('plan-search needs a classification; route classify before it');
    const year = ctx.services.year?.() ?? new Date().getFullYear();
    const plan = planSearch(data.question, data.classification, data.memory, ctx.services.catalog, year);
    data.strategies = plan.strategies;
    data.filters = plan.filters;
    if (plan.intent !== undefined) data.intent = plan.intent;
    return { output: 'planned', reason: plan.strategies.map((s) => s.strategy).join(', ') };
  },
});
