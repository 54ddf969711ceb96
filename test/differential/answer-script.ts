/**
 * The answers of an await case: which parked item (by item, document, placement and visit) gets which
 * answer, given as it parks; a parked item the script does not name is left to its deadline. The executors
 * give them through their dispatcher's `answer`, by the token of the `await.parked` event.
 */
import type { AnswerReceipt, AnswerRequest } from '../../src/awaits/request.ts';
import type { RunEvent } from '../../src/runtime/events.ts';

/** One scripted answer. */
export interface ScriptedAnswer {
  readonly item: string;
  /** IRI of the document the await placement is in. */
  readonly dag: string;
  readonly placement: string;
  readonly visit: number;
  readonly output: string;
  readonly data?: Record<string, unknown>;
}

/** A case's answers. */
export type AnswerScript = readonly ScriptedAnswer[];

/** Gives an answer to a run: a dispatcher's `answer`. */
export type Answerer = (request: AnswerRequest) => Promise<AnswerReceipt>;

/** The scripted answer for a parked item, if any. */
export function answerFor(
  script: AnswerScript,
  at: { item: string; dag: string; placement: string; visit: number },
): ScriptedAnswer | undefined {
  return script.find(
    (a) => a.item === at.item && a.dag === at.dag && a.placement === at.placement && a.visit === at.visit,
  );
}

/**
 * An event handler that answers each parked item the script names, through `answer`; the refusals and
 * failures of the answers are pushed to `refused` (a case whose answers are refused fails).
 */
export function answering(script: AnswerScript, answer: Answerer, refused: string[]): (e: RunEvent) => void {
  return (event) => {
    if (event.type !== 'await.parked' || event.resumed === true) return;
    const scripted = answerFor(script, event);
    if (scripted === undefined) return;
    const request: AnswerRequest = {
      runId: event.runId,
      token: event.token,
      output: scripted.output,
      ...(scripted.data === undefined ? {} : { data: scripted.data }),
    };
    answer(request).catch((error: unknown) => {
      refused.push(`${event.item} ${event.placement} visit ${event.visit}: ${String(error)}`);
    });
  };
}
