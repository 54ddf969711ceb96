/**
 * Helpers for the viewer's tests: a temporary folder, real runs recorded in a real SQLite store by the
 * dispatcher (on a virtual clock, so many runs take little time), and a viewer started on them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { nodes } from '../../examples/compose-validate/nodes.ts';
import { loadDagFile } from '../../src/document/load.ts';
import type { Dag } from '../../src/document/model.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';

/** The repository's root folder. */
export const ROOT = resolve(import.meta.dirname, '../..');

/** The repository's `dags/` folder. */
export const DAGS = join(ROOT, 'dags');

/** A fresh temporary folder and the function that removes it. */
export function tempFolder(prefix = 'switchyard-ui-'): {
  readonly path: string;
  readonly remove: () => void;
} {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** The compose-validate document of `dags/`. */
export async function composeValidate(): Promise<Dag> {
  const loaded = await loadDagFile(join(DAGS, 'compose-validate.jsonld'));
  if (loaded.dag === undefined) throw new Error('dags/compose-validate.jsonld does not load');
  return loaded.dag;
}

/**
 * Records `count` real runs of compose-validate in the store at `path` (created when missing), each over
 * the items `inputOf(i)` gives, on a virtual clock starting at `wallStart + i` minutes. Returns their ids,
 * oldest first.
 */
export async function recordRuns(
  path: string,
  count: number,
  inputOf: (i: number) => Record<string, unknown>[] = (i) => [{ topic: `topic ${i}`, rejections: i % 3 }],
  wallStart = Date.UTC(2026, 0, 1, 12, 0, 0),
): Promise<string[]> {
  const dag = await composeValidate();
  const store = await openSqliteStore(path);
  const ids: string[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const clock = createVirtualClock({ auto: true, wallStart: wallStart + i * 60_000 });
      const dispatcher = createDispatcher({ nodes, clock, store });
      const result = await dispatcher.run(dag, {}, { items: inputOf(i) });
      ids.push(result.runId);
    }
  } finally {
    await store.close();
  }
  return ids;
}
