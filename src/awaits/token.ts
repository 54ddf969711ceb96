import { createHash } from 'node:crypto';

/** Where an item parks: enough to name its wait before it begins. */
export interface ParkingPlace {
  /** The run's id. */
  readonly runId: string;
  /** The item's path in the run: `1`, `1.3` (a scatter child), `1/e` (inside an embed). */
  readonly item: string;
  /** IRI of the document the await placement is in. */
  readonly dag: string;
  /** The await placement's key. */
  readonly placement: string;
  /** 1 on the item's first entry into the placement, 2 on the second… */
  readonly visit: number;
}

/**
 * The answer token of an item parked at an await placement: derived from the run, the item's path, the
 * placement (with its document) and the visit, so that whoever will answer can compute it before the item
 * parks, and a later visit of the same placement waits for an answer of its own.
 *
 * @example
 * ```ts
 * answerToken({ runId, item: '1', dag: 'urn:switchyard:dag:review', placement: 'approve', visit: 1 });
 * // 'aw-3f9c…' (24 hex digits)
 * ```
 */
export function answerToken(place: ParkingPlace): string {
  const hash = createHash('sha256');
  // NUL separators: no field can run into the next and make two places hash alike.
  hash.update(`${place.runId}\0${place.item}\0${place.dag}\0${place.placement}\0${place.visit}`);
  return `aw-${hash.digest('hex').slice(0, 24)}`;
}

/** Whether `value` has the shape of an answer token. */
export function isAnswerToken(value: string): boolean {
  return /^aw-[0-9a-f]{24}$/.test(value);
}
