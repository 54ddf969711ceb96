import { createInterface } from 'node:readline';
import type { Memory } from '../../nodes/archivist/types.ts';
import { isSwitchyardError } from '../../src/errors.ts';
import type { ArchivistEnv } from './environment.ts';
import type { Session } from './session.ts';
import { traceLines } from './trace.ts';

const PROMPT = 'you> ';
const GREETING = 'Archivist chat: ask about books in the catalog ("exit" or Ctrl-D to leave).';

/**
 * An interactive session: reads questions line by line, answers each with one run of the ask DAG, and
 * passes what the previous answer was about into the next run, so "something shorter by the same
 * author" works. Resolves to the exit code when the input ends or the user types `exit`.
 */
export async function runChat(
  session: Session,
  io: ArchivistEnv,
  options: { trace: boolean },
): Promise<number> {
  const rl = createInterface({ input: io.stdin, output: io.stdout, terminal: io.isTTY, prompt: PROMPT });
  let memory: Memory | undefined;
  io.out(GREETING);
  rl.prompt();
  for await (const line of rl) {
    const question = line.trim();
    if (question === 'exit' || question === 'quit') break;
    if (question !== '') {
      try {
        const outcome = await session.engine.ask(question, memory);
        if (options.trace) io.out(traceLines(outcome.events).join('\n'));
        io.out(`archivist> ${outcome.answer}`);
        if (outcome.memory && outcome.shortlist.length > 0) memory = outcome.memory;
      } catch (error) {
        io.err(
          `archivist: ${isSwitchyardError(error) || error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    rl.prompt();
  }
  rl.close();
  return 0;
}
