/**
 * Asks the offline Archivist the evaluation's questions through its command line, in this process: one
 * turn is `archivist ask --json`, a conversation is `archivist chat` with the turns piped in. A virtual
 * clock keeps deadlines and back-off waits independent of the machine's load.
 */
import { PassThrough } from 'node:stream';
import type { ArchivistEnv } from '../../examples/archivist/environment.ts';
import { main } from '../../examples/archivist/main.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import type { EvalQuestion } from './set.ts';

/** What one turn printed: its answer text and, for `ask --json`, the parsed object. */
export interface TurnOutput {
  readonly text: string;
  readonly json?: Readonly<Record<string, unknown>>;
}

/** The turns' outputs, or the reason the program gave none. */
export type QuestionOutput =
  | { readonly ok: true; readonly turns: readonly TurnOutput[] }
  | { readonly ok: false; readonly turns: readonly TurnOutput[]; readonly error: string };

const CHAT_ANSWER = 'archivist> ';

async function runArchivist(args: readonly string[], input?: readonly string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const stdin = new PassThrough();
  const io: ArchivistEnv = {
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    env: {},
    // The wall clock starts at today's date: questions such as "the last twenty years" count from it.
    clock: createVirtualClock({ auto: true, wallStart: Date.now() }),
    isTTY: false,
    cwd: process.cwd(),
    stdin,
    stdout: new PassThrough(),
    progress: new PassThrough() as unknown as NodeJS.WriteStream,
  };
  if (input) stdin.end(`${input.join('\n')}\n`);
  const code = await main(['node', 'archivist', ...args], io);
  return { code, out, err: err.join('\n').trim() };
}

/** Asks one question (`ask --json`) or holds one conversation (`chat`) with the offline model. */
export async function askQuestion(question: EvalQuestion): Promise<QuestionOutput> {
  const first = question.turns[0];
  if (question.turns.length === 1 && first) {
    const { code, out, err } = await runArchivist(['ask', '--no-store', '--json', first.ask]);
    try {
      const json = JSON.parse(out.join('')) as Record<string, unknown>;
      const text = typeof json.answer === 'string' ? json.answer : '';
      return { ok: true, turns: [{ text, json }] };
    } catch {
      return { ok: false, turns: [], error: `exit ${code}, no JSON: ${err || out.join(' ')}`.slice(0, 200) };
    }
  }
  const { code, out, err } = await runArchivist(
    ['chat', '--no-store'],
    question.turns.map((t) => t.ask),
  );
  const turns = out
    .filter((line) => line.startsWith(CHAT_ANSWER))
    .map((line) => ({ text: line.slice(CHAT_ANSWER.length) }));
  if (turns.length < question.turns.length) {
    const why = err || `exit ${code}`;
    return {
      ok: false,
      turns,
      error: `${turns.length} of ${question.turns.length} turns answered: ${why}`.slice(0, 200),
    };
  }
  return { ok: true, turns };
}
