/**
 * How the command line finds a running viewer: while it runs, `switchyard ui` writes `ui.json` beside the
 * store it serves (its URL, pid and store), and removes it on exit. A file whose pid is no longer alive, or
 * that names another store, is ignored.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** What `ui.json` holds. */
export interface ViewerRecord {
  /** The viewer's base URL, without a trailing slash. */
  readonly url: string;
  readonly pid: number;
  /** The absolute path of the store it serves. */
  readonly store: string;
  /** ISO 8601. */
  readonly startedAt: string;
}

/** The discovery file of the store at `storePath`. */
export function viewerFile(storePath: string): string {
  return join(dirname(resolve(storePath)), 'ui.json');
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

/**
 * Writes the discovery file of a viewer and returns the function that removes it (only while it is still
 * this viewer's). A folder that cannot be written just leaves the viewer undiscoverable.
 */
export function announceViewer(storePath: string, url: string): () => void {
  const file = viewerFile(storePath);
  const record: ViewerRecord = {
    url,
    pid: process.pid,
    store: resolve(storePath),
    startedAt: new Date().toISOString(),
  };
  try {
    writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
  } catch {
    return () => {};
  }
  return () => {
    if (runningViewer(storePath)?.pid === process.pid) rmSync(file, { force: true });
  };
}

/** The viewer serving the store at `storePath`, when one is running. */
export function runningViewer(storePath: string): ViewerRecord | undefined {
  let record: Partial<ViewerRecord>;
  try {
    record = JSON.parse(readFileSync(viewerFile(storePath), 'utf8')) as Partial<ViewerRecord>;
  } catch {
    return undefined;
  }
  if (typeof record.url !== 'string' || typeof record.pid !== 'number' || typeof record.store !== 'string') {
    return undefined;
  }
  if (record.store !== resolve(storePath) || !alive(record.pid)) return undefined;
  return record as ViewerRecord;
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
