import { defineNode } from '../../src/runtime/node.ts';
import { type ArchivistServices, type AskData, nodeIri } from './services.ts';

/**
 * Answers a question that refers to an earlier answer which is not there ("the second one" as a first
 * question) by asking what it refers to: the question `read-question` wrote into `askBack`.
 */
export const askBack = defineNode<'asked', ArchivistServices>({
  id: nodeIri('ask-back'),
  outputs: ['asked'],
  description: 'Asks the reader what an unresolved reference means.',
  run(item) {
    const data = item.data as unknown as AskData;
    data.answer = data.askBack ?? 'Which book do you mean? Tell me a title, an author or a subject.';
    data.source = 'ask-back';
    data.shortlist = [];
    return 'asked';
  },
});
