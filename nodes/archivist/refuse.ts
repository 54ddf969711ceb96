import { defineNode } from '../../src/runtime/node.ts';
import { hasOtherScript } from './scripts.ts';
import { type ArchivistServices, type AskData, nodeIri } from './services.ts';

/** The polite answer to a question that is not about books. */
export const REFUSAL =
  'I can only help with books in the catalog: ask me to find a book by title or author, recommend something similar, or describe a book.';

/** What the Archivist offers, after a plain no. */
const OFFER = 'ask me to find a book by title or author, recommend something similar, or describe a book.';

/**
 * The answer to a declined request, by why it was declined. None repeats what the request asked for: an
 * injection's invented names and instructions stay unsaid.
 */
const DECLINED: Readonly<Record<NonNullable<AskData['declined']>, string>> = {
  injection: `I can't change or share my instructions. I can only help with books in the catalog: ${OFFER}`,
  code: `I can't write code. I can only help with books in the catalog: ${OFFER}`,
  writing: `I can't write or compute that for you. I can only help with books in the catalog: ${OFFER}`,
  unread:
    'I could not find a question about books in your message. Ask me in a sentence or two: a title, an author or a subject you would like to read about.',
};

/**
 * The answer to a question in another script that names no title, author or subject the Archivist knows: it
 * may well be about books, so it is no refusal.
 */
export const UNREAD_SCRIPT =
  'I could not find a title, an author or a subject I know in your question. The catalog lists its books in English and in their original titles: try the title or the author of a book, or a subject such as science fiction or history.';

/** Answers an off-topic, declined or empty question with a polite refusal. */
export const refuse = defineNode<'refused', ArchivistServices>({
  id: nodeIri('refuse'),
  outputs: ['refused'],
  description: 'Politely declines questions that are not about books.',
  run(item) {
    const data = item.data as unknown as AskData;
    data.answer =
      data.declined !== undefined
        ? DECLINED[data.declined]
        : hasOtherScript(data.question ?? '')
          ? UNREAD_SCRIPT
          : REFUSAL;
    data.source = 'refusal';
    data.shortlist = [];
    return 'refused';
  },
});
