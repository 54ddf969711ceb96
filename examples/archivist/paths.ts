import { fileURLToPath } from 'node:url';

/** The folder of the Archivist's DAG documents and policies. */
export const DAG_FOLDER = fileURLToPath(new URL('../../dags/archivist/', import.meta.url));

/** The book catalog shipped with the example. */
export const DEFAULT_CATALOG = fileURLToPath(new URL('./catalog.json', import.meta.url));

/** The policy for real models, and the one for the offline model (short deadlines: it answers at once). */
export const POLICY_FILE = `${DAG_FOLDER}ask.policy.json`;
export const OFFLINE_POLICY_FILE = `${DAG_FOLDER}ask.offline.policy.json`;

/** The IRI of the entry DAG. */
export const ASK_DAG = 'urn:switchyard:dag:archivist:ask';
