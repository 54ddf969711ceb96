import type { Command } from 'commander';
import type { CliIO } from '../io.ts';

/** `switchyard inspect <dag> [--policy p.json] [--json]`: structure, loops with their bounds, worst cases. */
export function registerInspect(program: Command, io: CliIO): void {
  program
    .command('inspect')
    .description('show placements, routes by kind, loops with their bounds, worst-case executions and time')
    .argument('<dag>', 'a DAG document, or - to read it from standard input')
    .option('--policy <file>', 'a runtime policy file (- for standard input): adds the worst-case run time')
    .option('--json', 'print the report as JSON')
    .action(async (file: string, options: { policy?: string; json?: boolean }) => {
      const { inspectAction } = await import('../actions/inspect.ts');
      await inspectAction(file, options, io);
    });
}
