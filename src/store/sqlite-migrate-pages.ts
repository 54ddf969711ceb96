/**
 * The part of the migration to schema version 8 that SQL alone cannot do: a page of events whose seqs a
 * version 8 key cannot hold is kept as single events, as a version 8 program writes it.
 */
import type { Database } from 'better-sqlite3';
import { toJsonText } from './json.ts';
import { eventsFromPage } from './sqlite-rows.ts';
import type { EventRecord } from './types.ts';

/** The highest seq a version 8 page may hold (`MAX_PAGE_SEQ` in `sqlite-statements.ts`). */
const MAX_PAGE_SEQ = 0xffff_ffff;

/**
 * Moves every page of a version 7 file whose first seq is not a whole number from 0, or whose last seq is past
 * 2^32 - 1, into rows of `events`: its key at version 8 would fall in the range of another run's pages.
 * Pages and single events never overlap, so the rows take no seq already taken.
 */
export function unpageUnkeyable(db: Database): void {
  const odd = db
    .prepare(
      `SELECT rowid, run_id, body FROM event_pages
       WHERE NOT (typeof(first_seq) = 'integer' AND first_seq >= 0 AND last_seq <= ${MAX_PAGE_SEQ})`,
    )
    .all() as { rowid: number; run_id: string; body: string }[];
  if (odd.length === 0) return;
  const insert = db.prepare('INSERT INTO events (run_id, seq, type, body) VALUES (?, ?, ?, ?)');
  const drop = db.prepare('DELETE FROM event_pages WHERE rowid = ?');
  for (const page of odd) {
    const events: EventRecord[] = [];
    eventsFromPage(page.run_id, page.body, Number.NEGATIVE_INFINITY, events);
    for (const e of events) insert.run(e.runId, e.seq, e.type, toJsonText(e.body, `event ${e.seq}`));
    drop.run(page.rowid);
  }
}
