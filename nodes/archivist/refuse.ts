import { defineNode } from '../../src/runtime/node.ts';
import { type ArchivistServices, type AskData, nodeIri } from './services.ts';

/** The polite answer to a question that is not about books. */
export const REFUSAL =
  'I can only help with books in the catalog: ask me to find a book by title or author, recommend something similar, or describe a book.';

/** Answers an off-topic (or empty) question with a polite refusal. */
export const refuse = defineNode<'refused', ArchivistServices>({
  id: nodeIri('refuse'),
  outputs: ['refused'],
  description: 'Politely declines questions that are not about books.',
  run(item) {
    const data = item.data as unknown as AskData;
    data.answer = REFUSAL;
    data.source = 'refusal';
    data.shortlist = [];
    return 'refused';
  },
});
