/**
 * The request inside a long message: a reader who writes a page about their week and ends "anyway, any good
 * books with dragons?" wants books with dragons. The sentences that ask for something (a request word, a
 * question mark, a word about books) are kept, the rest is left unread. Pure.
 */

/** A message longer than this is read for its request rather than whole. */
export const LONG_MESSAGE = 400;
/** The request read out of a long message is at most this long. */
const REQUEST_CHARS = 600;
/** A sentence with fewer content words than this leans on the sentence before it ("Any ideas?"). */
const CONTENT_WORDS = 3;

const REQUEST =
  /\b(?:recommend|suggest|looking for|look for|find me|can you|could you|would you|what should i read|what to read|something to read|any (?:good |great )?(?:books?|novels?|ideas|suggestions|recommendations)|i want|i(?:'d| would) (?:like|love|enjoy)|i(?:'m| am) (?:after|looking)|i need|i(?:'m| am) in the mood|give me|do you have|is there|are there|tell me about|please|help me find|in the mood for)\b/i;
const BOOKISH =
  /\b(?:books?|novels?|read|reading|authors?|writers?|stor(?:y|ies)|series|titles?|poems?|poetry|memoirs?|fiction|non-?fiction|classics?|library|catalog(?:ue)?)\b|[本書]|книг|роман|小説/i;
const FILLER = new Set(
  'a an and any anyway are be books book can could do for give good great have i ideas in is it me my novel novels of or please read recommend some something suggest that the this to want what which with would you your so well ok okay thanks'.split(
    ' ',
  ),
);

/** One sentence of the message, scored by how much it asks. */
interface Sentence {
  readonly text: string;
  readonly at: number;
  readonly score: number;
}

function sentencesOf(message: string): string[] {
  return message
    .split(/(?<=[.!?…。！？])\s+|\n+/u)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => s !== '');
}

function contentWords(sentence: string): number {
  return sentence
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 2 && !FILLER.has(w)).length;
}

/**
 * The request read out of `message` when it is long ({@link LONG_MESSAGE}), undefined when the message is
 * short enough to read whole, and `''` when no sentence of a long message asks for anything about books.
 * @example
 * requestOf(`${'My week was long. '.repeat(40)}Anyway, can you recommend books with dragons?`)
 * // 'Anyway, can you recommend books with dragons?'
 */
export function requestOf(message: string): string | undefined {
  if (message.length <= LONG_MESSAGE) return undefined;
  const all = sentencesOf(message);
  const scored: Sentence[] = all.map((text, at) => {
    const asks = REQUEST.test(text) ? 3 : 0;
    const bookish = BOOKISH.test(text) ? 2 : 0;
    const question = /[?？]\s*$/u.test(text) ? 2 : 0;
    // The request usually comes last: a later sentence wins a tie.
    return { text, at, score: asks + bookish + question + at / (all.length * 10) };
  });
  const asking = scored.filter((s) => s.score >= 4 || (s.score >= 2 && BOOKISH.test(s.text)));
  if (asking.length === 0) return '';
  const best = asking.reduce((a, b) => (b.score > a.score ? b : a));
  // "Any suggestions? I'd love a Japanese novel.": a neighbour that also asks, or names books, belongs to it.
  const parts = scored.filter((s) => s === best || (Math.abs(s.at - best.at) === 1 && s.score >= 2));
  // "Any ideas?": the words it asks about are in the nearest sentence about books before it.
  if (parts.every((s) => contentWords(s.text) < CONTENT_WORDS)) {
    const before = scored
      .filter((s) => s.at < best.at && BOOKISH.test(s.text))
      .reduce<Sentence | undefined>((a, b) => (a === undefined || b.at > a.at ? b : a), undefined);
    if (before && !parts.includes(before)) parts.unshift(before);
  }
  const request = parts.map((s) => s.text).join(' ');
  return request.length <= REQUEST_CHARS ? request : request.slice(0, REQUEST_CHARS).replace(/\s+\S*$/, '');
}
