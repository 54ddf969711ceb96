import { defineNode } from '../../src/runtime/node.ts';
import { type ArchivistServices, type AskData, nodeIri } from './services.ts';
import type { Memory } from './types.ts';

/** What the next turn of a conversation remembers of this item. */
export function memoryOf(data: AskData): Memory {
  const top = data.shortlist?.[0];
  const author = data.classification?.author ?? top?.authors[0];
  return {
    ...(data.intent === undefined ? {} : { intent: data.intent }),
    ...(author === undefined ? {} : { author }),
    ...(top === undefined ? {} : { bookId: top.id }),
    shortlist: (data.shortlist ?? []).map((b) => b.id),
  };
}

/** Finishes an answered item: the answer is final, and what a follow-up question needs is remembered. */
export const respond = defineNode<'responded', ArchivistServices>({
  id: nodeIri('respond'),
  outputs: ['responded'],
  description: 'Delivers the answer and remembers the turn.',
  run(item) {
    const data = item.data as unknown as AskData;
    data.answer = (data.answer ?? '').trim();
    data.nextMemory = memoryOf(data);
    return { output: 'responded', reason: `answer from ${data.source ?? 'unknown'}` };
  },
});
