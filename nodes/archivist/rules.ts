import { type Catalog, normalise } from './catalog.ts';
import { parseConstraints } from './constraints.ts';
import { followUpOf } from './follow-up.ts';
import { likePhraseOf, likeTargetOf } from './like-frame.ts';
import { originOf } from './origin.ts';
import { readQuestion } from './reading.ts';
import { titlePattern } from './title-lookup.ts';
import { matchTitle } from './title-match.ts';
import type { Book, Classification, Intent, Memory } from './types.ts';

const DESCRIBE =
  /\b(describe|summary|summari[sz]e|plot|what happens in|tell me (more )?about|what (is|s) .+ about|about the book)\b/;
const RECOMMEND =
  /\b(recommend|suggest|similar|like|something|anything|another|else|other|shorter|longer|next read|should i read|in the mood|loved|enjoyed|liked|adored|what next|read next)\b/;
const FIND =
  /\b(find|who wrote|books? by|written by|do you (have|hold|carry|stock)|have you got|got any|search|look(ing)? for|wrote|author of|which books?|list)\b/;
const BOOKISH =
  /\b(books?|novels?|read|reading|authors?|writers?|story|stories|fiction|library|catalog(ue)?|titles?|plays?|poems?|poetry|memoirs?|essays?|biograph(y|ies)|classics?|literature|cook ?books?|cookery|text ?books?|guide ?books?|dictionar(y|ies)|encyclopa?edias?)\b/;
const SAME_AUTHOR = /\b(same (author|writer)|by (her|him|them)|(her|his|their) other)\b/;
const SAME_BOOK = /\b(it|that( one| book)?|this( one| book)?|the same book)\b/;
const SHORTER = /\b(shorter|short|quicker|quick read|fewer pages|less long)\b/;
const LONGER = /\b(longer|long( \w+)? (read|books?|novels?|epic|saga|one)|more pages|bigger)\b/;
// "Short stories" is a subject and "how long is it" a question about one book: neither asks for a length.
const NOT_A_LENGTH = /\b(short stor(y|ies)|how long)\b/g;
/** A subject named in a question of at most this many words is a request for a book ("a classic romance"). */
const TERSE_WORDS = 6;

const STOPWORDS = new Set(
  (
    'a an and any are about be book books by can could do find for from give have i in is it like me my novel novels of on ' +
    'or please read recommend show similar some something suggest tell that the there this to want what which who with ' +
    'would you your same author shorter longer another else one written wrote whats short long good great best ' +
    'nice im id looking mood'
  ).split(' '),
);

/** The question without stopwords: what full-text search should look for. */
export function keywordsOf(question: string): string {
  return normalise(question)
    .split(' ')
    .filter((w) => w.length > 1 && !STOPWORDS.has(w))
    .join(' ');
}

function intentOf(
  q: string,
  named: boolean,
  subjects: number,
  memory: Memory | undefined,
  terse: boolean,
): Intent {
  if (DESCRIBE.test(q) && (named || memory?.bookId !== undefined)) return 'describe';
  if (RECOMMEND.test(q)) return 'recommend';
  if (FIND.test(q) || named) return 'find';
  if (subjects > 0 && (BOOKISH.test(q) || terse)) return 'recommend';
  if (BOOKISH.test(q)) return 'find';
  return 'off-topic';
}

/**
 * Classifies a question with fixed rules: the offline model's classifier, and the salvage route when a
 * real model cannot classify. Uses the previous turn for "the same author" and "something shorter".
 * @example
 * classifyByRules('something shorter by the same author', { author: 'George Orwell', bookId: 'nineteen-eighty-four' }, catalog);
 */
export function classifyByRules(
  question: string,
  memory: Memory | undefined,
  catalog: Catalog,
): Classification {
  const follow = followUpOf(question, memory, catalog);
  if (follow?.book) {
    const c = classifyWith(question, [follow.book], memory, catalog);
    return { ...c, intent: c.intent === 'recommend' || c.intent === 'off-topic' ? 'describe' : c.intent };
  }
  if (follow) {
    const c = classifyWith(question, catalog.titlesIn(question), memory, catalog);
    return { ...c, intent: 'recommend' };
  }
  // "books by Tolkien, not the Hobbit" does not ask about the Hobbit.
  const unwanted = new Set(
    (parseConstraints(question, new Date().getFullYear()).notTitles ?? []).flatMap(
      (t) => matchTitle(t, catalog)?.id ?? [],
    ),
  );
  const wanted = (books: readonly Book[]) => books.filter((b) => !unwanted.has(b.id));
  // "books like Sapiens", "fans of Gone Girl": the book named is the one to find others like.
  const phrase = likePhraseOf(question);
  const liked = phrase === undefined ? undefined : likeTargetOf(phrase, catalog)?.book;
  if (liked && !unwanted.has(liked.id)) {
    return { ...classifyWith(question, [liked], memory, catalog), intent: 'recommend' };
  }
  const strict = classifyWith(question, wanted(catalog.titlesIn(question)), memory, catalog);
  if (strict.intent !== 'off-topic') {
    // "the Wizard of Oz" names a book, though "wizard" is also a subject.
    if (strict.title !== undefined || RECOMMEND.test(normalise(question))) return strict;
    const named = readQuestion(question, catalog, undefined, new Date().getFullYear()).book;
    return named ? classifyWith(question, [named], memory, catalog) : strict;
  }
  // Before refusing, accept one-word titles written in lower case ("tell me about dune").
  const loose = wanted(catalog.titlesIn(question, { anyCase: true }));
  if (loose.length > 0) return classifyWith(question, loose, memory, catalog);
  // Then a title written loosely ("the hobit"), a series, a misspelt author, or a name the catalog lacks.
  const reading = readQuestion(question, catalog, undefined, new Date().getFullYear());
  if (reading.book) return classifyWith(question, [reading.book], memory, catalog);
  if (reading.series || reading.missing || reading.author) {
    return { ...strict, intent: 'find', ...(reading.author ? { author: reading.author } : {}) };
  }
  // "the sack of Rome and the fall of the empire": no word asks for a book, but one book's own words answer it.
  if (describedByOneBook(strict.keywords, catalog)) return { ...strict, intent: 'find' };
  return strict;
}

/** Whether `question` sets a limit on books: a length, a period, authors not wanted, an origin or an audience. */
function limitsIn(question: string): boolean {
  const { rest: _rest, notAuthors, ...limits } = parseConstraints(question, new Date().getFullYear());
  return (
    notAuthors.length > 0 ||
    Object.keys(limits).length > 0 ||
    Object.keys(originOf(question).filter).length > 0
  );
}

/** Words of a question one book must share before the question counts as about books. */
const SHARED_WORDS = 2;

/** Whether the best full-text match of `keywords` has at least two of those words in its own text. */
function describedByOneBook(keywords: string, catalog: Catalog): boolean {
  const words = keywords.split(' ').filter((w) => w.length >= 3);
  if (words.length < SHARED_WORDS) return false;
  const best = catalog.get(catalog.search(keywords)[0]?.id ?? '');
  if (best === undefined) return false;
  const text = new Set(normalise(`${best.title} ${best.subjects.join(' ')} ${best.description}`).split(' '));
  const has = (w: string) => text.has(w) || (w.endsWith('s') && text.has(w.slice(0, -1)));
  return words.filter(has).length >= SHARED_WORDS;
}

function classifyWith(
  question: string,
  titles: readonly Book[],
  memory: Memory | undefined,
  catalog: Catalog,
): Classification {
  const q = normalise(question);
  // "not by Christie" names an author the reader does not want.
  const unlimited = parseConstraints(question, new Date().getFullYear()).rest;
  // "Kafka on the Shore" names no author: the words of a title named are not read for names.
  const authors = catalog.authorsIn(
    titles.reduce((text, b) => text.replace(new RegExp(titlePattern(b.title), 'iu'), ' '), unlimited),
  );
  // Limits ("under 300 pages, before 1960") make a question longer, not less of a request for a book.
  const terse = normalise(unlimited).split(' ').length <= TERSE_WORDS;
  // Words of a named title ("A Short History of…", "Something Wicked…") say nothing about what is asked.
  const asked = titles.reduce((text, book) => text.replace(normalise(book.title), ' | '), q);
  const subjects = catalog.subjectsIn(asked);
  const remembered = memory?.bookId === undefined ? undefined : catalog.get(memory.bookId);
  const sameAuthor = SAME_AUTHOR.test(q);
  const lengthWords = asked.replace(NOT_A_LENGTH, ' ');
  const shorter = SHORTER.test(lengthWords);
  const longer = !shorter && LONGER.test(lengthWords);
  const followUp =
    memory !== undefined && (sameAuthor || shorter || longer || (titles.length === 0 && SAME_BOOK.test(q)));

  let title = titles[0]?.title;
  if (title === undefined && followUp && remembered && !sameAuthor && !shorter && !longer)
    title = remembered.title;
  let author = authors[0];
  if (author === undefined && sameAuthor) author = memory?.author ?? remembered?.authors[0];

  let intent = intentOf(asked, title !== undefined || author !== undefined, subjects.length, memory, terse);
  if (intent === 'off-topic' && followUp) intent = 'recommend';
  // "from before 1930", "not by Orwell", "any in French?": a limit alone, in a conversation, refines its request.
  if (intent === 'off-topic' && memory !== undefined && limitsIn(question)) intent = 'recommend';
  return {
    intent,
    ...(title === undefined ? {} : { title }),
    ...(author === undefined ? {} : { author }),
    subjects,
    keywords: keywordsOf(unlimited),
    shorter,
    longer,
  };
}
