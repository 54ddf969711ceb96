/**
 * What `runs show` says of a run's awaits: each item parked at one (its token, the answers expected, its
 * deadline and the command that answers it) and the answers recorded in the store that no item has taken.
 */
import type { ParkedItem } from '../../awaits/desk.ts';
import { parkedOfCheckpoint } from '../../awaits/stored.ts';
import type { AnswerRecord, ItemCheckpoint } from '../../store/types.ts';
import { type AnswerCommandContext, answerCommand, fromNow } from '../parked.ts';

/** An item parked at an await placement. */
export interface ParkedView {
  readonly token: string;
  readonly item: string;
  /** IRI of the document the await is in. */
  readonly dag: string;
  readonly placement: string;
  readonly visit: number;
  /** The outputs an answer may name. */
  readonly answers: readonly string[];
  /** When the item takes its `deadline` output without an answer (ISO 8601), and that from now. */
  readonly deadline: string;
  readonly deadlineIn: string;
  readonly parkedAt: string;
  /** The command line that answers it. */
  readonly command: string;
}

/** An answer recorded in the store that its item has not taken yet. */
export interface PendingAnswerView {
  readonly token: string;
  readonly output: string;
  readonly data?: unknown;
  readonly answeredAt: string;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** The view of one parked item, at wall time `now`. */
function parkedView(runId: string, p: ParkedItem, context: AnswerCommandContext, now: number): ParkedView {
  return {
    token: p.token,
    item: p.item,
    dag: p.dag,
    placement: p.placement,
    visit: p.visit,
    answers: p.answers,
    deadline: iso(p.deadlineAt),
    deadlineIn: fromNow(p.deadlineAt - now),
    parkedAt: iso(p.parkedAt),
    command: answerCommand(runId, p, context),
  };
}

/**
 * The parked items among a run's checkpoints, and those of `held` (a distributed run's `parked` hash, which
 * holds scatter and embed children too) that no checkpoint names, at wall time `now`.
 */
export function parkedViews(
  runId: string,
  checkpoints: readonly ItemCheckpoint[],
  context: AnswerCommandContext,
  now: number,
  held: readonly ParkedItem[] = [],
): ParkedView[] {
  const parked = checkpoints.flatMap((c) => parkedOfCheckpoint(c) ?? []);
  const seen = new Set(parked.map((p) => p.token));
  const more = held.filter((p) => !seen.has(p.token));
  return [...parked, ...more].map((p) => parkedView(runId, p, context, now));
}

/** The answers of `recorded` whose token no `await.answered` event names (`taken`). */
export function pendingAnswers(
  recorded: readonly AnswerRecord[],
  taken: ReadonlySet<string>,
): PendingAnswerView[] {
  return recorded
    .filter((a) => !taken.has(a.token))
    .map((a) => ({
      token: a.token,
      output: a.output,
      ...(a.data === undefined ? {} : { data: a.data }),
      answeredAt: iso(a.answeredAt),
    }));
}
