import { defineNode } from '../../src/runtime/node.ts';
import { requestOf } from './long-message.ts';
import { declinedOf } from './not-books.ts';
import { askBackOf } from './references.ts';
import { type ArchivistServices, type AskData, nodeIri } from './services.ts';

/**
 * Reads the question from the item: trims it and collapses whitespace; an empty one goes to `empty`. A request
 * that is not about books (code, a text to write, a prompt injection) goes to `declined`. A long message is
 * read for its request: the sentences that ask for something become the question, the whole message is kept
 * as `message`; a long message that asks nothing about books is declined too. A question that refers to an
 * earlier answer which is not there ("the second one" first) goes to `unclear`, with the question to ask back.
 */
export const readQuestion = defineNode<'read' | 'empty' | 'declined' | 'unclear', ArchivistServices>({
  id: nodeIri('read-question'),
  outputs: ['read', 'empty', 'declined', 'unclear'],
  description: 'Reads and normalises the question, and declines requests that are not about books.',
  run(item) {
    const data = item.data as unknown as AskData;
    const message = typeof data.question === 'string' ? data.question.trim() : '';
    const question = message.replace(/\s+/g, ' ');
    data.question = question;
    if (question === '') return { output: 'empty', reason: 'the question is empty' };
    const declined = declinedOf(question);
    if (declined !== undefined) {
      data.declined = declined;
      return { output: 'declined', reason: `not a question about books (${declined})` };
    }
    // "the second one" with no list before it: ask what it refers to.
    const askBack = askBackOf(question, data.memory);
    if (askBack !== undefined) {
      data.askBack = askBack;
      return { output: 'unclear', reason: 'refers to an earlier answer that is not there' };
    }
    const request = requestOf(message);
    if (request === undefined) return 'read';
    if (request === '') {
      data.declined = 'unread';
      return {
        output: 'declined',
        reason: `no request about books in a ${message.length}-character message`,
      };
    }
    data.message = question;
    data.question = request;
    return { output: 'read', reason: `read the request out of a ${message.length}-character message` };
  },
});
