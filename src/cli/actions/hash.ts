import { hashDag } from '../../document/hash.ts';
import type { HashOptions } from '../commands/hash.ts';
import type { CliIO } from '../io.ts';
import { loadValidDag } from '../load-one.ts';
import { displayPath } from '../output.ts';

/**
 * Carries out `switchyard hash <dag>`: prints the SHA-256 of the document's canonical N-Quads and its IRI,
 * or with `--json` one object naming the document too.
 */
export async function hashAction(file: string, options: HashOptions, io: CliIO): Promise<void> {
  const loaded = await loadValidDag(file, io);
  const hash = await hashDag(loaded.dag);
  if (options.json === true) {
    const document = displayPath(loaded.file, io.cwd);
    io.out(JSON.stringify({ hash, id: loaded.dag.id, file: document }, null, 2));
    return;
  }
  io.out(`${hash}  ${loaded.dag.id}`);
}
