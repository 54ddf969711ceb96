import type { Command } from 'commander';
import type { CliIO } from '../io.ts';

/** The options of `switchyard hash`. */
export interface HashOptions {
  readonly json?: boolean;
}

/** `switchyard hash <dag> [--json]`: the SHA-256 of the document's RDFC-1.0 canonical N-Quads. */
export function registerHash(program: Command, io: CliIO): void {
  program
    .command('hash')
    .description("print the DAG's identity: SHA-256 of its RDFC-1.0 canonical N-Quads")
    .argument('<dag>', 'a DAG document, or - to read it from standard input')
    .option('--json', 'print the hash, the IRI and the file as JSON')
    .action(async (file: string, options: HashOptions) => {
      const { hashAction } = await import('../actions/hash.ts');
      await hashAction(file, options, io);
    });
}
