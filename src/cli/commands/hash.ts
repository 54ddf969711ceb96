import type { Command } from 'commander';
import { hashDag } from '../../document/hash.ts';
import type { CliIO } from '../io.ts';
import { loadValidDag } from '../load-one.ts';

/** `switchyard hash <dag>`: the SHA-256 of the document's RDFC-1.0 canonical N-Quads. */
export function registerHash(program: Command, io: CliIO): void {
  program
    .command('hash')
    .description("print the DAG's identity: SHA-256 of its RDFC-1.0 canonical N-Quads")
    .argument('<dag>', 'a DAG document')
    .action(async (file: string) => {
      const { dag } = await loadValidDag(file, io.cwd);
      io.out(`${await hashDag(dag)}  ${dag.id}`);
    });
}
