import type { AwaitPlacement, Dag } from '../document/model.ts';
import { SwitchyardError } from '../errors.ts';
import { checkAnswer, expectedText, type GivenAnswer } from './answer-check.ts';
import type { ParkedItem } from './desk.ts';
import { answerToken, isAnswerToken } from './token.ts';

/**
 * An answer to an item at an await placement: its token, or the item and placement it is for (with the
 * document and visit when they are not the run's DAG and the item's parked or first visit), the output it
 * names and its data.
 * @example
 * await dispatcher.answer({ runId, token: 'aw-3f9c…', output: 'approved', data: { note: 'ship it' } });
 */
export interface AnswerRequest {
  readonly runId: string;
  /** The item's answer token (`await.parked`, `switchyard runs show`, or {@link answerToken}). */
  readonly token?: string;
  /** The item's path (`1`, `1.3`), with `placement`, instead of a token. */
  readonly item?: string;
  /** The await placement's key, with `item`. */
  readonly placement?: string;
  /** IRI of the document the placement is in; default the one the item is parked in, else the run's DAG. */
  readonly dag?: string;
  /** The item's visit of the placement; default the visit it is parked at, else 1. */
  readonly visit?: number;
  /** One of the placement's answers. */
  readonly output: string;
  /** Written into the item's data at the placement's `into`; leave it out for none. */
  readonly data?: unknown;
}

/** What became of an answer: `taken` by its parked item, `kept` for an item yet to park, or `recorded` in the run's store for the run to take when it goes on. */
export interface AnswerReceipt {
  readonly runId: string;
  readonly token: string;
  readonly output: string;
  readonly status: 'taken' | 'kept' | 'recorded';
  /** The parked item it is for, when it was parked. */
  readonly item?: string;
  readonly placement?: string;
}

/** The token an answer is for and, when its item is parked now, the parked item. */
export interface ResolvedAnswer {
  readonly token: string;
  readonly parked: ParkedItem | undefined;
  /** The await placement it is for, when the request named it or its item is parked. */
  readonly placement: AwaitPlacement | undefined;
}

/** Finds an await placement of the run's documents. */
export type AwaitLookup = (dag: string, key: string) => AwaitPlacement | undefined;

/**
 * Finds what an answer is for among the items parked now: by token, or by item and placement (its token
 * computed for the visit named, or the parked one, or the first). Throws `E_ANSWER` for a request that names
 * neither, or names a placement that is no await of the run's documents, and `E_UNKNOWN_TOKEN` for a string
 * that is no answer token.
 */
export function resolveAnswer(
  request: AnswerRequest,
  parked: readonly ParkedItem[],
  rootDag: string,
  lookup: AwaitLookup,
): ResolvedAnswer {
  if (request.token !== undefined) {
    if (typeof request.token !== 'string' || !isAnswerToken(request.token)) {
      throw new SwitchyardError(
        'E_UNKNOWN_TOKEN',
        `'${String(request.token).slice(0, 80)}' is not an answer token (aw- and 24 hex digits); copy it from \`switchyard runs show ${request.runId}\` or the await.parked event`,
      );
    }
    const found = parked.find((p) => p.token === request.token);
    return { token: request.token, parked: found, placement: found && lookup(found.dag, found.placement) };
  }
  const { item, placement: key } = request;
  if (typeof item !== 'string' || typeof key !== 'string') {
    throw new SwitchyardError(
      'E_ANSWER',
      'an answer names its token, or the item and the await placement it is for; give token, or item and placement',
    );
  }
  const found = parked.find(
    (p) =>
      p.item === item &&
      p.placement === key &&
      (request.dag === undefined || p.dag === request.dag) &&
      (request.visit === undefined || p.visit === request.visit),
  );
  const dag = found?.dag ?? request.dag ?? rootDag;
  const placement = lookup(dag, key);
  if (placement === undefined) {
    throw new SwitchyardError(
      'E_ANSWER',
      `'${key}' is not an await placement of ${dag}; name the await placement the item waits at (and its document with dag when it is an embedded one)`,
    );
  }
  if (found !== undefined) return { token: found.token, parked: found, placement };
  const visit = request.visit ?? 1;
  return {
    token: answerToken({ runId: request.runId, item, dag, placement: key, visit }),
    parked: undefined,
    placement,
  };
}

/**
 * Checks an answer before anything changes: against its placement when that is known, else (a token of an
 * item yet to park) its output against every await of the run's documents. Answers the answer to keep.
 */
export function admittedAnswer(
  request: AnswerRequest,
  resolved: ResolvedAnswer,
  awaits: readonly AwaitPlacement[],
): GivenAnswer {
  const given: GivenAnswer =
    request.data === undefined ? { output: request.output } : { output: request.output, data: request.data };
  if (resolved.placement !== undefined) return checkAnswer(resolved.placement, given);
  if (awaits.length === 0) {
    throw new SwitchyardError(
      'E_UNKNOWN_TOKEN',
      `run '${request.runId}' has no await placement, so token ${resolved.token} names nothing; check the run id`,
    );
  }
  const fits = awaits.filter((a) => a.answers.includes(request.output));
  if (fits.length === 0) {
    const all = [...new Set(awaits.flatMap((a) => a.answers))].sort();
    throw new SwitchyardError(
      'E_ANSWER',
      `no await placement of run '${request.runId}' expects '${request.output}'; answer with one of ${expectedText(all)}`,
    );
  }
  // Checked whole against the first that fits; the placement it parks at checks it again.
  return checkAnswer(fits.find((a) => a.into !== undefined) ?? (fits[0] as AwaitPlacement), given);
}

/** Every await placement of a run's documents, and a lookup by document and key. */
export function awaitsOf(dags: readonly Dag[]): { awaits: AwaitPlacement[]; lookup: AwaitLookup } {
  const byDag = new Map<string, Map<string, AwaitPlacement>>();
  const awaits: AwaitPlacement[] = [];
  for (const dag of dags) {
    const own = new Map<string, AwaitPlacement>();
    for (const placement of dag.placements) {
      if (placement.kind !== 'await') continue;
      own.set(placement.key, placement);
      awaits.push(placement);
    }
    byDag.set(dag.id, own);
  }
  return { awaits, lookup: (dag, key) => byDag.get(dag)?.get(key) };
}
