import type { Command } from 'commander';
import type { CliIO } from '../io.ts';

/** `switchyard hash <dag>`: the SHA-256 of the document's RDFC-1.0 canonical N-Quads. */
export function registerHash(program: Command, io: CliIO): void {
  program
    .command('hash')
    .description("print the DAG's identity: SHA-256 of its RDFC-1.0 canonical N-Quads")
    .argument('<dag>', 'a DAG document')
    .action(async (file: string) => {
      const { hashAction } = await import('../actions/hash.ts');
      await hashAction(file, io);
    });
}
