import { hashDag } from '../../document/hash.ts';
import type { CliIO } from '../io.ts';
import { loadValidDag } from '../load-one.ts';

/** Carries out `switchyard hash <dag>`: prints the SHA-256 of the document's canonical N-Quads and its IRI. */
export async function hashAction(file: string, io: CliIO): Promise<void> {
  const { dag } = await loadValidDag(file, io.cwd);
  io.out(`${await hashDag(dag)}  ${dag.id}`);
}
