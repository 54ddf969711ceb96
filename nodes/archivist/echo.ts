import { composeMessages } from './prompts.ts';
import type { Candidate, Intent } from './types.ts';

/** Lines of the prompt shorter than this are words an answer may well use ("Shortlist:" is the shortest kept). */
const MIN_ECHO = 10;

/** Share of the draft that, when it is the question verbatim, makes the draft a repetition of it. */
const MOSTLY = 0.5;

function flat(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * Says why a draft echoes its prompt instead of answering, or undefined when it does not: a line of the
 * compose prompt copied verbatim (its instructions, the `Intent:`/`Question:`/`Shortlist:` lines, a
 * shortlist line with or without its number, or its citation with the subjects list), or a draft that
 * is mostly the question itself.
 * @example
 * echoIn('1. "Dune" by Frank Herbert (1965, 412 pages) — …', 'something like Dune', 'recommend', shortlist);
 */
export function echoIn(
  draft: string,
  question: string,
  intent: Intent,
  shortlist: readonly Candidate[],
): string | undefined {
  const text = flat(draft);
  if (text === '') return undefined;
  const asked = flat(question);
  const lines = composeMessages(question, intent, shortlist, undefined)
    .flatMap((m) => m.content.split('\n'))
    .map((line) => flat(line.replace(/^\d+\. /, '')))
    .filter((line) => line.length >= MIN_ECHO && line !== asked);
  // The citation and subjects of a shortlist line are how the prompt lists a book, not how prose names one.
  const listed = shortlist
    .filter((b) => b.subjects.length > 0)
    .map((b) => flat(`(${b.year}, ${b.pages} pages) — ${b.subjects.join(', ')}`));
  const copied = [...lines, ...listed].find((line) => text.includes(line));
  if (copied !== undefined) {
    return `the draft copies the prompt ("${copied.slice(0, 40)}…") instead of answering; answer in your own sentences`;
  }
  if (asked.split(' ').length >= 3 && text.includes(asked) && asked.length >= text.length * MOSTLY) {
    return 'the draft repeats the question instead of answering it; answer it';
  }
  return undefined;
}
