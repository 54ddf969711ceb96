import { createInterface } from 'node:readline';
import type { Memory } from '../../nodes/archivist/types.ts';
import { refusalLine } from '../../src/cli/refusal.ts';
import { isSwitchyardError, SwitchyardError } from '../../src/errors.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import type { Conversation } from './conversation.ts';
import type { AskOutcome } from './engine.ts';
import type { ArchivistEnv } from './environment.ts';
import { waitNotice } from './provider-notices.ts';
import { questionProblem } from './question.ts';
import type { Session } from './session.ts';
import { traceLines } from './trace.ts';

const PROMPT = 'you> ';
const GREETING =
  'Archivist chat: ask about books in the catalog ("exit" or Ctrl-D to leave; Ctrl-C cancels an answer).';
const LEAVE = /^(exit|quit)[.!]?$/i;

/**
 * The line a question that failed gets: that it was not answered, and why, with the error's code; the chat
 * goes on with the next question.
 */
export function turnFailure(error: unknown): string {
  const what = 'that question was not answered';
  if (isSwitchyardError(error)) return refusalLine('archivist', `${what}: ${error.message}`, error.code);
  const reason = error instanceof Error ? error.message : String(error);
  return `archivist: ${what}: ${reason.replace(/\s+/gu, ' ').trim()}`;
}

/** What a chat needs besides the session. */
export interface ChatOptions {
  readonly trace: boolean;
  readonly conversation?: Conversation;
  /**
   * Lines that arrived during a turn and are printed on standard error at its end, when no spinner draws:
   * the provider's refusal of the key or the model.
   */
  readonly warnings?: string[];
}

/**
 * An interactive session: reads questions line by line, answers each with one run of the ask DAG, and
 * passes what the previous answer was about into the next run, so "something shorter by the same
 * author" works. With a `conversation`, each turn is recorded in the session's store under it; a
 * conversation read back from the store is shown, and its cut-off turn answered, before new input is taken.
 *
 * On a terminal, Ctrl-C while an answer is being prepared cancels that answer (its run stops, recorded as
 * aborted) and the conversation goes on; Ctrl-C with text at the prompt clears it; Ctrl-C at an empty
 * prompt, Ctrl-D, or "exit" / "quit" in any case end the chat with a newline. Resolves to exit code 0.
 */
export async function runChat(session: Session, io: ArchivistEnv, options: ChatOptions): Promise<number> {
  const rl = createInterface({ input: io.stdin, output: io.stdout, terminal: io.isTTY, prompt: PROMPT });
  // Taken before anything is awaited, so lines piped in meanwhile wait in its queue.
  const lines = rl[Symbol.asyncIterator]();
  const conversation = options.conversation;
  let memory: Memory | undefined = conversation?.memory;
  let pending: AbortController | undefined;
  let left = false;
  const onEvent = (event: RunEvent) => {
    const notice = waitNotice(event, session.model.name);
    if (notice !== undefined) io.err(notice);
  };
  rl.on('SIGINT', () => {
    if (pending) {
      pending.abort(new SwitchyardError('E_ABORTED', 'cancelled by the reader'));
      return;
    }
    if (rl.line !== '') {
      // Like a shell: Ctrl-C drops the line being typed and prompts again.
      rl.write(null, { ctrl: true, name: 'e' });
      rl.write(null, { ctrl: true, name: 'u' });
      io.stdout.write('\n');
      rl.prompt();
      return;
    }
    left = true;
    io.stdout.write('\n');
    rl.close();
  });
  const answer = async (asking: (signal: AbortSignal) => Promise<AskOutcome>) => {
    const controller = new AbortController();
    pending = controller;
    try {
      const outcome = await asking(controller.signal);
      for (const line of options.warnings?.splice(0) ?? []) io.err(line);
      if (controller.signal.aborted || outcome.status === 'aborted') {
        io.err('archivist: answer cancelled; ask again, or another question');
        return;
      }
      // The trace goes to standard error, so standard output holds the conversation alone.
      if (options.trace) io.err(traceLines(outcome.events).join('\n'));
      if (options.trace && outcome.runId) io.err(`  run ${outcome.runId}`);
      if (outcome.answer === '') {
        io.err(`archivist: that question was not answered (its run ended ${outcome.status}); ask again`);
        return;
      }
      io.out(`archivist> ${outcome.answer}`);
      if (outcome.memory && outcome.shortlist.length > 0) memory = outcome.memory;
    } catch (error) {
      io.err(turnFailure(error));
    } finally {
      pending = undefined;
    }
  };
  io.out(GREETING);
  if (conversation && session.store) {
    for (const turn of conversation.turns)
      io.out(`${PROMPT}${turn.question}${turn.answer === undefined ? '' : `\narchivist> ${turn.answer}`}`);
    io.err(
      `archivist: conversation ${conversation.id} is recorded in ${session.store.shown}; archivist chat --resume goes on with it`,
    );
    const cut = conversation.interrupted;
    if (cut) {
      io.out(`${PROMPT}${cut.question}`);
      // The engine takes over the lease of a killed process of this host at once.
      await answer(() => session.engine.resume(cut.runId, onEvent));
    }
  }
  rl.prompt();
  for await (const line of lines) {
    const question = line.trim();
    if (LEAVE.test(question)) {
      left = true;
      break;
    }
    const tooLong = questionProblem(question);
    if (tooLong !== undefined) io.err(`archivist: ${tooLong}`);
    else if (question !== '')
      await answer((signal) => session.engine.ask(question, memory, onEvent, conversation?.next(), signal));
    rl.prompt();
  }
  // Ctrl-D on a terminal ends the input on the prompt's line: the shell's prompt starts on a line of its own.
  if (!left && io.isTTY) io.stdout.write('\n');
  rl.close();
  return 0;
}
