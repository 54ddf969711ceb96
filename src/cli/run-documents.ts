/**
 * The documents a recorded run is resumed with, read again from the files it recorded: its DAG with the
 * checks of `validate` (so a node the module no longer registers is one clear line), and the documents it
 * embeds from their recorded files, else from beside the DAG. A file that is gone is named, and the engine
 * then uses the copy recorded with the run.
 */
import { existsSync } from 'node:fs';
import { loadDagFile } from '../document/load.ts';
import type { Dag, DagLibrary } from '../document/model.ts';
import type { NodeRegistry } from '../runtime/node.ts';
import type { RunRecord } from '../store/types.ts';
import { loadValidDag } from './load-one.ts';

/** What {@link recordedDocuments} found. */
export interface RecordedDocuments {
  /** The run's DAG as its file holds it now; undefined when the file is gone or none was recorded. */
  readonly dag?: Dag;
  /** The documents the DAG embeds, as their files hold them now. */
  readonly library?: DagLibrary;
  /** Recorded files that are gone: the run goes on with the documents recorded with it instead. */
  readonly missing: readonly string[];
}

/**
 * Reads the files of `record` again. Throws the one-line errors of `loadValidDag` when the DAG file no
 * longer loads or analyses (with `nodes`, a node the module does not register is `E_UNKNOWN_NODE`).
 */
export async function recordedDocuments(
  record: RunRecord,
  cwd: string,
  nodes: NodeRegistry,
): Promise<RecordedDocuments> {
  const file = record.dag.file;
  const missing: string[] = [];
  for (const doc of [record.dag, ...record.documents]) {
    if (doc.file !== undefined && !existsSync(doc.file)) missing.push(doc.file);
  }
  if (file === undefined || !existsSync(file)) return { missing };
  const { dag, library: around } = await loadValidDag(file, { cwd, err: () => {} }, nodes);
  const own = new Map<string, Dag>();
  for (const doc of record.documents) {
    if (doc.file === undefined || !existsSync(doc.file)) continue;
    const loaded = (await loadDagFile(doc.file).catch(() => undefined))?.dag;
    if (loaded?.id === doc.iri) own.set(doc.iri, loaded);
  }
  return { dag, library: { get: (iri) => own.get(iri) ?? around.get(iri) }, missing };
}
