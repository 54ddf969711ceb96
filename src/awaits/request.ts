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

/** The visits of a placement a token of an item yet to park is looked for among. */
const VISITS_SEARCHED = 8;
/** At most this many tokens are derived in that search: past it, the answer is checked more loosely. */
const TOKENS_SEARCHED = 100_000;

/**
 * The place a token names, when it is the token of one of the run's input items (`1` … `items`) at an
 * await of the run's own document on one of its first visits: tokens are derived, not stored, so the
 * place of an item that has not parked is found by deriving the candidates.
 */
function placeOfToken(
  token: string,
  runId: string,
  rootDag: string,
  awaits: readonly AwaitPlacement[],
  lookup: AwaitLookup,
  items: number,
): { readonly placement: AwaitPlacement } | undefined {
  const own = awaits.filter((a) => lookup(rootDag, a.key) === a);
  if (own.length === 0 || items * own.length * VISITS_SEARCHED > TOKENS_SEARCHED) return undefined;
  for (let i = 1; i <= items; i++) {
    for (const placement of own) {
      for (let visit = 1; visit <= VISITS_SEARCHED; visit++) {
        const place = { runId, item: String(i), dag: rootDag, placement: placement.key, visit };
        if (answerToken(place) === token) return { placement };
      }
    }
  }
  return undefined;
}

/**
 * Finds what an answer is for among the items parked now: by token, or by item and placement (its token
 * computed for the visit named, or the parked one, or the first). A token no parked item holds is looked
 * for among the tokens the run's `items` input items would have at its own document's awaits, so that an
 * answer given before its item parks is checked against its own placement when it can be. Throws
 * `E_ANSWER` for a request that names
 * neither, or names a placement that is no await of the run's documents, and `E_UNKNOWN_TOKEN` for a string
 * that is no answer token.
 */
export function resolveAnswer(
  request: AnswerRequest,
  parked: readonly ParkedItem[],
  rootDag: string,
  index: AwaitIndex,
  items = 0,
): ResolvedAnswer {
  const { lookup } = index;
  if (request.token !== undefined) {
    if (typeof request.token !== 'string' || !isAnswerToken(request.token)) {
      throw new SwitchyardError(
        'E_UNKNOWN_TOKEN',
        `'${String(request.token).slice(0, 80)}' is not an answer token (aw- and 24 hex digits); copy it from \`switchyard runs show ${request.runId}\` or the await.parked event`,
      );
    }
    const found = parked.find((p) => p.token === request.token);
    if (found !== undefined) {
      return { token: request.token, parked: found, placement: lookup(found.dag, found.placement) };
    }
    const place = placeOfToken(request.token, request.runId, rootDag, index.awaits, lookup, items);
    return { token: request.token, parked: undefined, placement: place?.placement };
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
export interface AwaitIndex {
  readonly awaits: readonly AwaitPlacement[];
  readonly lookup: AwaitLookup;
}

/** The {@link AwaitIndex} of a run's documents. */
export function awaitsOf(dags: readonly Dag[]): AwaitIndex {
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
