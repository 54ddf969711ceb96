/** The longest question the Archivist takes, in characters: a question, not a pasted document. */
export const MAX_QUESTION_CHARS = 2000;

/** Why a question is refused before any run (too long), as one line; undefined when it is fine. */
export function questionProblem(question: string): string | undefined {
  if (question.length <= MAX_QUESTION_CHARS) return undefined;
  return `the question is ${question.length} characters long; the limit is ${MAX_QUESTION_CHARS}: ask it in fewer words`;
}
