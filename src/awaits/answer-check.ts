import type { AwaitPlacement } from '../document/model.ts';
import { isSwitchyardError, SwitchyardError } from '../errors.ts';
import { admitItemData } from '../runtime/item-data.ts';

/** An answer as given: the output it names and the data it carries (absent: none). */
export interface GivenAnswer {
  readonly output: string;
  readonly data?: unknown;
}

/** The outputs an answer may name, as a message lists them. */
export function expectedText(answers: readonly string[]): string {
  return answers.map((answer) => `'${answer}'`).join(', ');
}

/**
 * Checks an answer against the await placement it is for, before anything is changed: the output must be one
 * of the placement's answers, and data is taken only by a placement that says where it goes (`into`), as
 * plain JSON (an object when it replaces the whole item data). Answers the answer with its data copied, or
 * throws `E_ANSWER` saying what is expected.
 * @example
 * checkAnswer(review, { output: 'maybe' }); // throws E_ANSWER: … expects one of 'approved', 'rejected'
 */
export function checkAnswer(placement: AwaitPlacement, answer: GivenAnswer): GivenAnswer {
  const { output } = answer;
  if (typeof output !== 'string' || !placement.answers.includes(output)) {
    const named = typeof output === 'string' ? `'${output}'` : 'no output';
    throw new SwitchyardError(
      'E_ANSWER',
      `the answer names ${named}, but await placement '${placement.key}' expects one of ${expectedText(placement.answers)}; answer with one of them`,
    );
  }
  if (answer.data === undefined) return { output };
  if (placement.into === undefined) {
    throw new SwitchyardError(
      'E_ANSWER',
      `await placement '${placement.key}' takes no data with its answers (it declares no 'into'); answer '${output}' without data`,
    );
  }
  const data = admittedData(answer.data);
  if (placement.into === '' && (data === null || typeof data !== 'object' || Array.isArray(data))) {
    throw new SwitchyardError(
      'E_ANSWER',
      `await placement '${placement.key}' writes an answer's data over the whole item data, so it must be a JSON object; give an object`,
    );
  }
  return { output, data };
}

/** The answer's data as plain JSON (a copy), or `E_ANSWER` saying what in it is not. */
function admittedData(data: unknown): unknown {
  try {
    return admitItemData({ answer: data }, 'the answer').answer;
  } catch (error) {
    if (isSwitchyardError(error)) {
      throw new SwitchyardError(
        'E_ANSWER',
        error.message.replace(/^the answer holds (.*?) at \/answer/, "the answer's data holds $1 at /"),
      );
    }
    throw error;
  }
}
