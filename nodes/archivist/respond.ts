import { defineNode } from '../../src/runtime/node.ts';
import { type Catalog, normalise } from './catalog.ts';
import { factAnswer, listAnswer } from './fact-answer.ts';
import { notRecordedSentence } from './not-recorded.ts';
import { requestOf } from './request.ts';
import { type ArchivistServices, type AskData, nodeIri } from './services.ts';
import type { Book, Memory } from './types.ts';
import { without } from './unmet.ts';
import { lackingAnswer, unmetAnswer } from './unmet-answer.ts';

/** The shortlisted books an answer names, in the order it names them. */
export function presentedIn(answer: string, data: AskData): string[] {
  const text = ` ${normalise(answer)} `;
  return (data.shortlist ?? [])
    .map((b) => ({ id: b.id, at: text.indexOf(` ${normalise(b.title)} `) }))
    .filter((b) => b.at >= 0)
    .sort((a, b) => a.at - b.at)
    .map((b) => b.id);
}

/** What the books of a list have in common, for an answer about them: "by George Orwell". */
function scopeOf(books: readonly Book[]): string | undefined {
  const first = books[0];
  if (first === undefined) return undefined;
  const author = first.authors.find((a) => books.every((b) => b.authors.includes(a)));
  if (author !== undefined) return `by ${author}`;
  const series = first.series;
  return series !== undefined && books.every((b) => b.series === series)
    ? `of the ${series} series`
    : undefined;
}

/**
 * The answer a catalog fact gives, whatever was composed: an honest miss, a part of the question no book
 * meets, a topic no book is about; undefined for every other question.
 */
function factOf(data: AskData, catalog: Catalog): string | undefined {
  const filters = data.filters;
  if (filters === undefined) return undefined;
  const shortlist = data.shortlist ?? [];
  if (filters.missing) return factAnswer(filters, shortlist);
  if (data.unmet) {
    const pool = (filters.list ?? []).flatMap((id) => shortlist.find((b) => b.id === id) ?? []);
    const like = filters.like === undefined ? undefined : catalog.get(filters.like)?.title;
    return unmetAnswer(
      filters,
      data.unmet,
      shortlist,
      filters.list ? scopeOf(pool.length > 0 ? pool : shortlist) : undefined,
      like,
    );
  }
  if (shortlist.length === 0) return lackingAnswer(filters);
  return undefined;
}

function again(data: AskData): boolean {
  return data.filters?.again === true;
}

/** What the next turn of a conversation remembers of this item. */
export function memoryOf(data: AskData): Memory {
  const shown = data.presented ?? [];
  const top = data.shortlist?.find((b) => b.id === shown[0]) ?? data.shortlist?.[0];
  const asked = data.classification?.author;
  // "Kafka on the Shore" names Kafka's surname, but its author is Murakami: the book shown decides.
  const author =
    asked !== undefined && (top === undefined || top.authors.includes(asked)) ? asked : top?.authors[0];
  // A book picked from the last answer ("the second one") is discussed within the request in force: the
  // book the reader started from, the request and the list stay what they were.
  const previous = data.filters?.picked ? data.memory : undefined;
  const anchor = previous?.anchor ?? data.filters?.like ?? data.filters?.anchor ?? top?.id;
  const list = data.filters?.list !== undefined && data.filters.missing === undefined;
  const listAuthor = list
    ? top?.authors.find((a) => (data.shortlist ?? []).every((b) => b.authors.includes(a)))
    : undefined;
  // A limit no book met is not carried on: the reader has been told so.
  const met = data.filters && data.unmet ? without(data.filters, data.unmet.limits) : data.filters;
  const request = previous ? previous.request : requestOf(met, listAuthor);
  const shortlist = shown.length > 0 ? shown : (data.shortlist ?? []).map((b) => b.id);
  return {
    ...(data.intent === undefined ? {} : { intent: data.intent }),
    ...(author === undefined ? {} : { author }),
    ...(top === undefined ? {} : { bookId: top.id }),
    ...(anchor === undefined ? {} : { anchor }),
    shortlist: previous?.shortlist ?? shortlist,
    shown: [...new Set([...(data.memory?.shown ?? []), ...shown])],
    // "another one" asks the question that found the list again.
    question: again(data) ? (data.memory?.question ?? data.question) : data.question,
    ...(request !== undefined && Object.keys(request).length > 0 ? { request } : {}),
  };
}

/** Finishes an answered item: the answer is final, and what a follow-up question needs is remembered. */
export const respond = defineNode<'responded', ArchivistServices>({
  id: nodeIri('respond'),
  outputs: ['responded'],
  description: 'Delivers the answer and remembers the turn.',
  run(item, ctx) {
    const data = item.data as unknown as AskData;
    // A miss and a whole list are catalog facts: they are stated from the catalog, whatever was composed.
    // A model's own wording of a list stands; the offline model states it with `listAnswer` too.
    const fact = factOf(data, ctx.services.catalog);
    const unrecorded = data.filters?.unrecorded;
    if (fact !== undefined) data.answer = fact;
    if (unrecorded?.hard) data.answer = notRecordedSentence(unrecorded);
    else if (unrecorded && data.answer !== undefined && (data.shortlist ?? []).length > 0)
      data.answer = `${notRecordedSentence(unrecorded)} ${data.answer}`;
    else if (data.filters?.lacking?.words && data.answer !== undefined) {
      // Part of the topic is in no book: the answer says so before the books about the rest.
      data.answer = `None of the catalog's books mentions ${data.filters.lacking.words.join(' or ')}; these are about the rest of what you asked. ${data.answer}`;
    }
    // The offline wording of a list the question's limits narrowed must not claim it is the whole list.
    const shortlist = data.shortlist ?? [];
    if (data.filters?.narrowed && data.answer !== undefined && data.answer === listAnswer(shortlist))
      data.answer = listAnswer(shortlist, true) ?? data.answer;
    data.answer = (data.answer ?? '').trim();
    data.miss =
      data.filters?.missing !== undefined ||
      unrecorded?.hard === true ||
      (data.filters?.lacking !== undefined && (data.shortlist ?? []).length === 0);
    data.presented =
      fact !== undefined ? (data.shortlist ?? []).map((b) => b.id) : presentedIn(data.answer, data);
    data.nextMemory = memoryOf(data);
    return { output: 'responded', reason: `answer from ${data.source ?? 'unknown'}` };
  },
});
