/**
 * Questions that point back at an earlier answer which is not there: "the second one" as the first thing a
 * reader says, "something shorter" with nothing to be shorter than, "the fifth one" after a list of three.
 * The Archivist asks what they refer to instead of guessing. Pure: reads the question and the memory.
 */
import type { Memory } from './types.ts';

/** Ordinal words and their places in a list ("second" → 2). */
export const ORDINALS: Readonly<Record<string, number>> = {
  first: 1,
  '1st': 1,
  second: 2,
  '2nd': 2,
  third: 3,
  '3rd': 3,
  fourth: 4,
  '4th': 4,
  fifth: 5,
  '5th': 5,
  sixth: 6,
  '6th': 6,
  seventh: 7,
  '7th': 7,
  eighth: 8,
  '8th': 8,
  ninth: 9,
  '9th': 9,
  tenth: 10,
  '10th': 10,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
};

// Words before a reference that ask about it, and the reference itself.
const ASKING = String.raw`(?:(?:and|so|ok|okay|then|well|now|hmm|please)[,!]?\s+)*(?:(?:tell me|say|talk) (?:a bit |a little )?(?:more )?about|what(?:'s| is| was)|what about|more about|describe|summari[sz]e|who wrote|when was|how long is|is|was|give me|show me|i(?:'d| would) like|i want)?\s*`;
/** "the second one", "number two", "the last book": a place in a list. */
const PLACE = new RegExp(
  String.raw`^${ASKING}(?:the\s+)?(?:(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|1st|2nd|3rd|4th|5th|6th|7th|8th|9th|10th|last)(?:\s+(?:one|book|title|novel|of them))?|number\s+(\d{1,2}|one|two|three|four|five|six))(?:\s+(?:please|then|again))?\s*[?.!]*$`,
  'i',
);
/** "it", "that one", "this book", "them": a book or books already named. */
const PRONOUN = new RegExp(
  String.raw`^${ASKING}(?:it|that|this|that one|this one|that book|this book|the book|them|those|these|those ones|him|her)(?:\s+(?:about|for me|please|again))?\s*[?.!]*$`,
  'i',
);
/** Requests measured against an earlier book: "something shorter", "older ones", "more like this". */
const AGAINST =
  /^(?:(?:and|so|ok|okay|then|now|maybe|perhaps)[,!]?\s+)*(?:(?:something|anything|one|ones|books?|novels?|any|some)\s+)?(?:a bit\s+|a little\s+|much\s+)?(?:shorter|longer|older|newer|earlier|later|more recent|similar|else|different|more like (?:it|this|that|these|those|them)|like (?:it|this|that|these|those|them)|(?:by|from) the same (?:author|writer)|(?:by|from) (?:him|her|them)|(?:his|her|their) other (?:books|novels|ones)|the sequel|the next (?:one|book)|the one (?:before|after)|another (?:one|book)|one more|which of them|which ones?)(?:\s+(?:ones?|books?|novels?|please|then|too))*\s*[?.!]*$/i;

/**
 * The question to ask back when `question` refers to an earlier answer it cannot be resolved against, or
 * undefined when it can (or refers to none).
 * @example
 * askBackOf('the second one', undefined) // 'Which book do you mean? …'
 */
export function askBackOf(question: string, memory: Memory | undefined): string | undefined {
  const q = question.trim();
  const place = q.match(PLACE);
  const shown = memory?.shortlist ?? [];
  if (place) {
    if (shown.length === 0) return NOTHING_SHOWN;
    const word = (place[1] ?? place[2] ?? '').toLowerCase();
    const at = word === 'last' ? shown.length : (ORDINALS[word] ?? Number(word));
    if (at > shown.length) {
      return `Which book do you mean? My last answer showed ${shown.length === 1 ? 'one book' : `${shown.length} books`}, so there is no ${word} one: tell me its title, or ask about one of those.`;
    }
    return undefined;
  }
  if (memory === undefined && (PRONOUN.test(q) || AGAINST.test(q) || onlyPoints(q))) return NOTHING_SHOWN;
  return undefined;
}

/** Words that point at a book or books named before ("the sequel", "the shortest of them", "by her"). */
const POINTERS = new Set(
  'it this that these those them him her his their same sequel prequel next previous shortest longest oldest newest earliest latest shorter longer older newer earlier later similar else another other others first second third fourth fifth last'.split(
    ' ',
  ),
);
/** Words that ask about what is pointed at without naming anything ("which of them is …", "is there a …"). */
const FILLER = new Set(
  'a an the is are was were there which what who whom of one ones book books novel novels by author writer tell me more about any some anything something give show please and so then also too do you have got can could would i id like want to it s in out came come comes published written first'.split(
    ' ',
  ),
);

/** Whether `question` says nothing but that it points at books named before. */
function onlyPoints(question: string): boolean {
  const words = question
    .toLowerCase()
    .replace(/['’]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
  const pointing = words.filter((w) => POINTERS.has(w));
  return pointing.length > 0 && words.every((w) => POINTERS.has(w) || FILLER.has(w));
}

const NOTHING_SHOWN =
  'Which book do you mean? I have not shown you any books yet in this conversation. Tell me a title, an author or a subject, and I will find books for you.';
