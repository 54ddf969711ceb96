/** What a store refused: the code of its error, for the contract suites. */
import { isSwitchyardError } from '../../src/errors.ts';

/** The code of the store error `promise` rejects with; fails when it resolves or rejects with another error. */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isSwitchyardError(error)) return error.code;
    throw error;
  }
  throw new Error('expected the store to refuse');
}
