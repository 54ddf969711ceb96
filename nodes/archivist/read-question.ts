import { defineNode } from '../../src/runtime/node.ts';
import { type ArchivistServices, type AskData, nodeIri } from './services.ts';

/** Reads the question from the item: trims it and collapses whitespace; an empty one goes to `empty`. */
export const readQuestion = defineNode<'read' | 'empty', ArchivistServices>({
  id: nodeIri('read-question'),
  outputs: ['read', 'empty'],
  description: 'Reads and normalises the question.',
  run(item) {
    const data = item.data as unknown as AskData;
    const question = typeof data.question === 'string' ? data.question.replace(/\s+/g, ' ').trim() : '';
    data.question = question;
    return question === '' ? { output: 'empty', reason: 'the question is empty' } : 'read';
  },
});
