/**
 * The parts of listing runs that do not depend on the store: defaults, the status filter and the paging
 * cursor. A cursor names the last run of a page by its creation time and id, so a page never repeats or
 * skips a run when runs are added or pruned between two pages.
 */
import { SwitchyardError } from '../errors.ts';
import type { RunQuery, RunRecord, RunStatus } from './types.ts';

/** Runs per page when a query sets no limit. */
export const DEFAULT_PAGE_SIZE = 50;

/** The place after which the next page starts. */
export interface PagePosition {
  readonly createdAt: number;
  readonly id: string;
}

/** The page size a query asks for: a positive integer, {@link DEFAULT_PAGE_SIZE} by default. */
export function pageSize(query: RunQuery): number {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  if (!(Number.isInteger(limit) && limit > 0)) {
    throw new SwitchyardError('E_USAGE', `a page of runs needs a positive whole limit (got ${limit})`);
  }
  return limit;
}

/** The statuses a query keeps, or undefined for all. */
export function statusFilter(query: RunQuery): readonly RunStatus[] | undefined {
  const status = query.status;
  if (status === undefined) return undefined;
  return typeof status === 'string' ? [status] : status;
}

/** The cursor of the page after `last`. */
export function encodeCursor(last: RunRecord): string {
  return Buffer.from(JSON.stringify([last.createdAt, last.id])).toString('base64url');
}

/** The position a cursor names; `E_USAGE` for a cursor no store wrote. */
export function decodeCursor(cursor: string | undefined): PagePosition | undefined {
  if (cursor === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && typeof parsed[0] === 'number' && typeof parsed[1] === 'string') {
      return { createdAt: parsed[0], id: parsed[1] };
    }
  } catch {
    // Falls through to the one error below.
  }
  throw new SwitchyardError(
    'E_USAGE',
    `'${cursor}' is not a cursor of a page of runs; pass the 'next' of a page`,
  );
}

/** True when `run` comes after `position` in the newest-first order. */
export function isAfter(run: RunRecord, position: PagePosition): boolean {
  return (
    run.createdAt < position.createdAt ||
    (run.createdAt === position.createdAt && compareIds(run.id, position.id) < 0)
  );
}

/** The newest-first order of runs: by creation time, then by id, both descending. */
export function newestFirst(a: RunRecord, b: RunRecord): number {
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return compareIds(b.id, a.id);
}

/**
 * Two ids in the order of their UTF-8 bytes (code point order), as SQLite and Redis compare them; `<` on
 * strings compares UTF-16 code units, which puts a character past U+FFFF (a surrogate pair) before U+E000
 * to U+FFFF.
 */
function compareIds(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** A UTF-16 code unit's rank in code point order: surrogates after U+E000 to U+FFFF. */
function codePointRank(unit: number): number {
  if (unit >= 0xe000) return unit - 0x800;
  return unit >= 0xd800 ? unit + 0x2000 : unit;
}

/** The statuses a prune deletes when it names none: every status of an ended run. */
export const ENDED_STATUSES: readonly RunStatus[] = Object.freeze(['completed', 'failed', 'aborted']);
