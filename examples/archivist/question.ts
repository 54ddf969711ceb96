/**
 * The longest message the Archivist takes, in characters: a long message is read for the request in it, but
 * a pasted book is not a message.
 */
export const MAX_QUESTION_CHARS = 50_000;

/** Why a question is refused before any run (too long), as one line; undefined when it is fine. */
export function questionProblem(question: string): string | undefined {
  if (question.length <= MAX_QUESTION_CHARS) return undefined;
  return `the question is ${question.length} characters long; the limit is ${MAX_QUESTION_CHARS}: ask it in fewer words`;
}
