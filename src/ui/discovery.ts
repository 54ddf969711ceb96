/**
 * How the command line finds a running viewer: while it runs, `switchyard ui` writes `<store>.ui.json` beside
 * the store it serves (its URL, pid and store), one link per store. The first viewer of a store holds the
 * link until it stops, and only it removes it; a second viewer of the same store leaves it alone. A file whose
 * pid is no longer alive, or that names another store, is ignored, and the next viewer replaces it.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** What the link file holds. */
export interface ViewerRecord {
  /** The viewer's base URL, without a trailing slash. */
  readonly url: string;
  readonly pid: number;
  /** The absolute path of the store it serves. */
  readonly store: string;
  /** ISO 8601. */
  readonly startedAt: string;
}

/** A viewer's claim on its store's link. */
export interface Announcement {
  /** The viewer run pages link to: this one, another one already serving the store, or none. */
  readonly holder?: ViewerRecord;
  /** Removes the link if this viewer holds it; leaves another viewer's alone. */
  retract(): void;
}

/** The link file of the store at `storePath`: `runs.db` → `runs.db.ui.json`, beside it. */
export function viewerFile(storePath: string): string {
  const store = resolve(storePath);
  return join(dirname(store), `${basename(store)}.ui.json`);
}

/** Whether process `pid` is alive (a process of another user still counts). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The record in `file`, when it is one. */
function readRecord(file: string): ViewerRecord | undefined {
  let record: Partial<ViewerRecord>;
  try {
    record = JSON.parse(readFileSync(file, 'utf8')) as Partial<ViewerRecord>;
  } catch {
    return undefined;
  }
  if (typeof record.url !== 'string' || typeof record.pid !== 'number' || typeof record.store !== 'string') {
    return undefined;
  }
  return record as ViewerRecord;
}

/** Creates `file` with `text` unless it exists; false when it does (or cannot be written). */
function createOnly(file: string, text: string): 'created' | 'exists' | 'failed' {
  try {
    writeFileSync(file, text, { flag: 'wx' });
    return 'created';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EEXIST' ? 'exists' : 'failed';
  }
}

/**
 * Writes the link of a viewer at `url` serving the store at `storePath`, unless a live viewer of that store
 * holds it already. A folder that cannot be written just leaves the viewer without a link.
 * @example
 * const announced = announceViewer('.switchyard/runs.db', 'http://127.0.0.1:4317');
 * // … later, as the viewer stops:
 * announced.retract();
 */
export function announceViewer(storePath: string, url: string): Announcement {
  const file = viewerFile(storePath);
  const record: ViewerRecord = {
    url,
    pid: process.pid,
    store: resolve(storePath),
    startedAt: new Date().toISOString(),
  };
  const text = `${JSON.stringify(record, null, 2)}\n`;
  // Two tries: a stale link (its viewer gone) is removed once, and then the race for it is fair.
  for (let attempt = 0; attempt < 2; attempt++) {
    const created = createOnly(file, text);
    if (created === 'created') break;
    if (created === 'failed') return { retract: () => {} };
    const holder = runningViewer(storePath);
    if (holder !== undefined) return { holder, retract: () => {} };
    rmSync(file, { force: true });
  }
  return {
    holder: record,
    retract() {
      const current = readRecord(file);
      if (current?.url === record.url && current.pid === record.pid) rmSync(file, { force: true });
    },
  };
}

/** The viewer serving the store at `storePath`, when one is running. */
export function runningViewer(storePath: string): ViewerRecord | undefined {
  const record = readRecord(viewerFile(storePath));
  if (record === undefined || record.store !== resolve(storePath) || !alive(record.pid)) return undefined;
  return record;
}

/**
 * The URL of run `runId`'s page when a viewer serves the store at `storePath`, else undefined.
 * @example
 * const url = viewerUrl('.switchyard/runs.db', result.runId);
 * if (url) console.error(`watch it at ${url}`);
 */
export function viewerUrl(storePath: string | undefined, runId: string): string | undefined {
  if (storePath === undefined) return undefined;
  const viewer = runningViewer(storePath);
  return viewer === undefined ? undefined : `${viewer.url}/runs/${encodeURIComponent(runId)}`;
}

/**
 * Writes `view it at <url>` with `write` when a viewer serves the store at `storePath`; nothing otherwise.
 * @example
 * printViewerUrl(io.err, storePath, runId);
 */
export function printViewerUrl(
  write: (line: string) => void,
  storePath: string | undefined,
  runId: string,
): void {
  const url = viewerUrl(storePath, runId);
  if (url !== undefined) write(`view it at ${url}`);
}
