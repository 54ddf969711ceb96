/** What `switchyard answer` names on its command line, and how it says what it answered. */
import type { AnswerReceipt } from '../../awaits/request.ts';

/** What `answer` names on its command line. */
export interface AnswerArguments {
  readonly runId: string;
  readonly token: string;
  readonly output: string;
}

/**
 * `answered item 1 at 'review' with 'approved'`, or by token for an item yet to park.
 * @example
 * answeredText({ runId: 'r1', token: 'aw-…', output: 'approved', status: 'taken', item: '1', placement: 'review' });
 * // "answered item 1 at 'review' with 'approved'"
 */
export function answeredText(receipt: AnswerReceipt): string {
  const what =
    receipt.item === undefined
      ? `token ${receipt.token} (its item has not parked yet)`
      : `item ${receipt.item} at '${receipt.placement}'`;
  return `answered ${what} with '${receipt.output}'`;
}
