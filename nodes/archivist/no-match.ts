import { defineNode } from '../../src/runtime/node.ts';
import { type ArchivistServices, type AskData, nodeIri } from './services.ts';

/** Answers a question whose search found no book. */
export const noMatch = defineNode<'answered', ArchivistServices>({
  id: nodeIri('no-match'),
  outputs: ['answered'],
  description: 'Says that the catalog holds no matching book.',
  run(item) {
    const data = item.data as unknown as AskData;
    data.answer =
      'I could not find a book in the catalog that matches your question. Try a title, an author or a subject.';
    data.source = 'no-match';
    return 'answered';
  },
});
