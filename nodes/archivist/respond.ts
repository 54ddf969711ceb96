import { defineNode } from '../../src/runtime/node.ts';
import { normalise } from './catalog.ts';
import { factAnswer, listAnswer } from './fact-answer.ts';
import { type ArchivistServices, type AskData, nodeIri } from './services.ts';
import type { Memory } from './types.ts';

/** The shortlisted books an answer names, in the order it names them. */
export function presentedIn(answer: string, data: AskData): string[] {
  const text = ` ${normalise(answer)} `;
  return (data.shortlist ?? [])
    .map((b) => ({ id: b.id, at: text.indexOf(` ${normalise(b.title)} `) }))
    .filter((b) => b.at >= 0)
    .sort((a, b) => a.at - b.at)
    .map((b) => b.id);
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
  const anchor = data.filters?.like ?? data.filters?.anchor ?? top?.id;
  return {
    ...(data.intent === undefined ? {} : { intent: data.intent }),
    ...(author === undefined ? {} : { author }),
    ...(top === undefined ? {} : { bookId: top.id }),
    ...(anchor === undefined ? {} : { anchor }),
    shortlist: shown.length > 0 ? shown : (data.shortlist ?? []).map((b) => b.id),
    shown: [...new Set([...(data.memory?.shown ?? []), ...shown])],
    // "another one" asks the question that found the list again.
    question: again(data) ? (data.memory?.question ?? data.question) : data.question,
  };
}

/** Finishes an answered item: the answer is final, and what a follow-up question needs is remembered. */
export const respond = defineNode<'responded', ArchivistServices>({
  id: nodeIri('respond'),
  outputs: ['responded'],
  description: 'Delivers the answer and remembers the turn.',
  run(item) {
    const data = item.data as unknown as AskData;
    // A miss and a whole list are catalog facts: they are stated from the catalog, whatever was composed.
    // A model's own wording of a list stands; the offline model states it with `listAnswer` too.
    const fact = data.filters?.missing ? factAnswer(data.filters, data.shortlist ?? []) : undefined;
    if (fact !== undefined) data.answer = fact;
    // The offline wording of a list the question's limits narrowed must not claim it is the whole list.
    const shortlist = data.shortlist ?? [];
    if (data.filters?.narrowed && data.answer !== undefined && data.answer === listAnswer(shortlist))
      data.answer = listAnswer(shortlist, true) ?? data.answer;
    data.answer = (data.answer ?? '').trim();
    data.miss = data.filters?.missing !== undefined;
    data.presented =
      fact !== undefined ? (data.shortlist ?? []).map((b) => b.id) : presentedIn(data.answer, data);
    data.nextMemory = memoryOf(data);
    return { output: 'responded', reason: `answer from ${data.source ?? 'unknown'}` };
  },
});
