import { isSwitchyardError } from '../errors.ts';
import type { ErrorClassification } from '../policy/classify.ts';
import { describeThrown } from '../policy/safe-read.ts';
import type { ErrorSummary } from './events.ts';

/** What the dispatcher knows about a failure: the classification plus the engine's own code. */
export interface ClassifiedError extends ErrorClassification {
  /** The stable code reported in results: a SwitchyardError's code, else `E_NODE_ERROR`. */
  readonly engineCode: string;
}

/** Pairs a classification with the code the engine reports for the thrown value. */
export function withEngineCode(error: unknown, classification: ErrorClassification): ClassifiedError {
  const engineCode = isSwitchyardError(error) ? error.code : 'E_NODE_ERROR';
  return { ...classification, engineCode };
}

/** A failure the engine itself decides on (unrouted output, deadlines, aborts), as a classified error. */
export function engineError(
  code: string,
  message: string,
  kind: ErrorClassification['kind'] = 'error',
  retryable = false,
): ClassifiedError {
  return { engineCode: code, code, message, kind, retryable };
}

/**
 * An error the engine threw while an item was at `placement` (not a node's error), as the item's failure: a
 * {@link SwitchyardError} with its own code (a hostile pointer's `E_INPUT`), anything else as `E_ENGINE`.
 * Never throws, whatever was thrown.
 */
export function engineFailure(error: unknown, placement: string): ClassifiedError {
  if (isSwitchyardError(error)) return engineError(error.code, describeThrown(error));
  const message = `the engine failed at placement '${placement}': ${describeThrown(error)}; report this with the DAG and input that caused it`;
  return engineError('E_ENGINE', message);
}

/** The plain-JSON form of a failure used in events and results. */
export function summarise(error: ClassifiedError): ErrorSummary {
  const summary: { -readonly [K in keyof ErrorSummary]: ErrorSummary[K] } = {
    code: error.engineCode,
    message: error.message,
    retryable: error.retryable,
    kind: error.kind,
  };
  if (error.status !== undefined) summary.status = error.status;
  return summary;
}
