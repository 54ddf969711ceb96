/**
 * Scoring of the evaluation: pure functions from an expectation and the answers read to the checks that hold
 * or fail, each failure with a one-line reason.
 */
import { asksReader, type EvalBook, type ReadAnswer, saysRefusal } from './answer.ts';
import type { EvalQuestion, EveryBook, Expectation } from './set.ts';

/** One check of one turn: an expectation's, or `grounded`, which fails every turn that quotes an invented title. */
export interface CheckResult {
  readonly check: keyof Expectation | 'grounded';
  readonly ok: boolean;
  /** Why it failed; empty when it held. */
  readonly reason: string;
}

/** The score of one question. */
export interface QuestionScore {
  readonly id: string;
  readonly class: EvalQuestion['class'];
  /** 1 when every check of every turn holds, else 0. */
  readonly score: 0 | 1;
  /** The share of checks that hold, 0 to 1. */
  readonly partial: number;
  /** One line per failed check, prefixed by its turn in a conversation. */
  readonly reasons: readonly string[];
}

const list = (ids: readonly string[]) => (ids.length === 0 ? 'nothing' : ids.join(', '));

/** Why `book` breaks `every`, or undefined when it meets all of it. */
export function breaksEvery(book: EvalBook, every: EveryBook): string | undefined {
  const by = book.authors.join(' and ');
  if (every.authors && !book.authors.some((a) => every.authors?.includes(a))) return `${book.id} is by ${by}`;
  if (every.notAuthors && book.authors.some((a) => every.notAuthors?.includes(a)))
    return `${book.id} is by ${by}`;
  if (every.minPages !== undefined && book.pages < every.minPages)
    return `${book.id} has ${book.pages} pages`;
  if (every.maxPages !== undefined && book.pages > every.maxPages)
    return `${book.id} has ${book.pages} pages`;
  if (every.minYear !== undefined && book.year < every.minYear) return `${book.id} is from ${book.year}`;
  if (every.maxYear !== undefined && book.year > every.maxYear) return `${book.id} is from ${book.year}`;
  if (every.from && !every.from.includes(book.id)) return `${book.id} is not one of the acceptable books`;
  return undefined;
}

/**
 * Runs every check of `expect` on one answer. `earlier` holds the answers of the conversation's earlier
 * turns, oldest first; `books` finds catalog facts by id.
 */
export function checkTurn(
  expect: Expectation,
  answer: ReadAnswer,
  books: ReadonlyMap<string, EvalBook>,
  earlier: readonly ReadAnswer[] = [],
): CheckResult[] {
  const shown = answer.books;
  const results: CheckResult[] = [];
  const add = (check: CheckResult['check'], reason: string | undefined) =>
    results.push({ check, ok: reason === undefined, reason: reason ?? '' });
  // A quoted title the catalog does not hold is an invented book, whatever else the answer gets right.
  if (answer.unknownQuotes.length > 0) {
    add('grounded', `quotes "${answer.unknownQuotes[0]}", which is no catalog title`);
  }
  if (expect.first !== undefined) {
    add(
      'first',
      shown[0] === expect.first ? undefined : `first book is ${shown[0] ?? 'none'}, not ${expect.first}`,
    );
  }
  if (expect.include) {
    const missing = expect.include.filter((id) => !shown.includes(id));
    add('include', missing.length === 0 ? undefined : `missing ${list(missing)}`);
  }
  if (expect.includeSome) {
    const min = expect.includeSome.min ?? 1;
    const found = expect.includeSome.ids.filter((id) => shown.includes(id));
    add(
      'includeSome',
      found.length >= min
        ? undefined
        : `${found.length} of the ${min} expected books (e.g. ${expect.includeSome.ids.slice(0, 3).join(', ')})`,
    );
  }
  if (expect.exclude) {
    const found = expect.exclude.filter((id) => shown.includes(id));
    add('exclude', found.length === 0 ? undefined : `presents excluded ${list(found)}`);
  }
  if (expect.every) {
    const every = expect.every;
    const broken = shown.flatMap((id) => {
      const book = books.get(id);
      const why = book && breaksEvery(book, every);
      return why ? [why] : [];
    });
    add('every', broken.length === 0 ? undefined : `constraint broken: ${broken.slice(0, 3).join('; ')}`);
  }
  if (expect.order) {
    const order = expect.order.ids;
    // Publication order is by catalog year, so books of the same year may come in either order.
    const rank = (id: string) =>
      expect.order?.by === 'publication' ? (books.get(id)?.year ?? 0) : order.indexOf(id);
    const seen = shown.filter((id) => order.includes(id));
    const ok = seen.every((id, i) => i === 0 || rank(seen[i - 1] as string) <= rank(id));
    add('order', ok ? undefined : `not in ${expect.order.by} order: ${list(seen)}`);
  }
  if (expect.minBooks !== undefined) {
    add(
      'minBooks',
      shown.length >= expect.minBooks ? undefined : `${shown.length} books, fewer than ${expect.minBooks}`,
    );
  }
  if (expect.maxBooks !== undefined) {
    add(
      'maxBooks',
      shown.length <= expect.maxBooks ? undefined : `${shown.length} books, more than ${expect.maxBooks}`,
    );
  }
  if (expect.miss !== undefined) {
    const reason = expect.miss ? 'does not say the catalog lacks it' : 'says the catalog lacks it';
    add('miss', answer.miss === expect.miss ? undefined : reason);
  }
  if (expect.firstFromPrevious !== undefined) {
    const previous = earlier.at(-1)?.books ?? [];
    const wanted = previous[expect.firstFromPrevious - 1];
    add(
      'firstFromPrevious',
      wanted !== undefined && shown[0] === wanted
        ? undefined
        : `first book is ${shown[0] ?? 'none'}, not book ${expect.firstFromPrevious} of the previous answer (${wanted ?? 'none'})`,
    );
  }
  if (expect.says) {
    const missing = expect.says.filter((p) => !new RegExp(p, 'i').test(answer.text));
    add('says', missing.length === 0 ? undefined : `does not say /${missing[0]}/`);
  }
  if (expect.saysNot) {
    const found = expect.saysNot.filter((p) => new RegExp(p, 'i').test(answer.text));
    add('saysNot', found.length === 0 ? undefined : `says /${found[0]}/`);
  }
  if (expect.refuses !== undefined) {
    const refused = shown.length === 0 && saysRefusal(answer.text);
    const reason = expect.refuses
      ? `does not decline plainly (${shown.length} books presented)`
      : 'declines a question about books';
    add('refuses', refused === expect.refuses ? undefined : reason);
  }
  if (expect.asksBack !== undefined) {
    const asked = shown.length === 0 && asksReader(answer.text);
    add(
      'asksBack',
      asked === expect.asksBack ? undefined : expect.asksBack ? 'does not ask back' : 'asks back',
    );
  }
  if (expect.noRepeats) {
    const before = new Set(earlier.flatMap((a) => a.books));
    const again = shown.filter((id) => before.has(id));
    add('noRepeats', again.length === 0 ? undefined : `presents again ${list(again)}`);
  }
  return results;
}

/** Scores a question from the answers of its turns, in order (fewer answers than turns: the rest failed). */
export function scoreQuestion(
  question: EvalQuestion,
  answers: readonly ReadAnswer[],
  books: ReadonlyMap<string, EvalBook>,
): QuestionScore {
  let total = 0;
  let held = 0;
  const reasons: string[] = [];
  question.turns.forEach((turn, i) => {
    const answer = answers[i];
    const prefix = question.turns.length > 1 ? `turn ${i + 1}: ` : '';
    if (!answer) {
      const n = Object.keys(turn.expect).length;
      total += n;
      reasons.push(`${prefix}no answer`);
      return;
    }
    for (const r of checkTurn(turn.expect, answer, books, answers.slice(0, i))) {
      total += 1;
      if (r.ok) held += 1;
      else reasons.push(`${prefix}${r.check}: ${r.reason}`);
    }
  });
  return {
    id: question.id,
    class: question.class,
    score: reasons.length === 0 ? 1 : 0,
    partial: total === 0 ? 1 : held / total,
    reasons,
  };
}
