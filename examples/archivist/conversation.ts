/**
 * A chat as a conversation kept in the run store: each turn is one recorded run of the ask DAG whose input
 * names the conversation and the turn, so the conversation is rebuilt from the runs alone and the store
 * needs no notion of the Archivist.
 */
import { randomUUID } from 'node:crypto';
import type { AskData } from '../../nodes/archivist/services.ts';
import type { Memory } from '../../nodes/archivist/types.ts';
import { SwitchyardError } from '../../src/errors.ts';
import type { RunRecord, RunStore } from '../../src/store/types.ts';
import { ASK_DAG } from './paths.ts';

/** Which conversation a turn's run belongs to, written into its input as `chat`. */
export interface ChatTurn {
  readonly conversation: string;
  /** 1 for the first question, 2 for the next… */
  readonly turn: number;
}

/** A recorded turn: the question, the answer it got and the run that gave it. */
export interface TurnRecord {
  readonly turn: number;
  readonly question: string;
  /** Absent when the run failed or has not ended. */
  readonly answer?: string;
  readonly runId: string;
}

/** A turn whose run never ended: the process died during it. */
export interface InterruptedTurn {
  readonly turn: number;
  readonly question: string;
  readonly runId: string;
}

/** A conversation: its id, its finished turns, and what the next turn remembers. */
export class Conversation {
  private last: number;

  constructor(
    readonly id: string,
    readonly turns: readonly TurnRecord[] = [],
    /** What the next question is asked with: the last turn that found books. */
    readonly memory: Memory | undefined = undefined,
    readonly interrupted: InterruptedTurn | undefined = undefined,
  ) {
    this.last = Math.max(0, interrupted?.turn ?? 0, ...turns.map((t) => t.turn));
  }

  /** The turn the next question is recorded as. */
  next(): ChatTurn {
    this.last += 1;
    return { conversation: this.id, turn: this.last };
  }
}

/** A new conversation with a random id. */
export function newConversation(): Conversation {
  return new Conversation(randomUUID());
}

/** The `chat` field of a run's first input item, when the run is a turn of a conversation. */
export function turnOf(run: RunRecord): ChatTurn | undefined {
  const first = Array.isArray(run.input) ? (run.input[0] as { chat?: unknown } | undefined) : undefined;
  const chat = first?.chat as Partial<ChatTurn> | undefined;
  if (typeof chat?.conversation !== 'string' || typeof chat.turn !== 'number') return undefined;
  return { conversation: chat.conversation, turn: chat.turn };
}

/** Every run of the ask DAG that is a turn of a conversation, newest first. */
async function* turnRuns(store: RunStore): AsyncGenerator<{ run: RunRecord; turn: ChatTurn }> {
  let cursor: string | undefined;
  do {
    const page = await store.listRuns({ dag: ASK_DAG, limit: 200, ...(cursor ? { cursor } : {}) });
    for (const run of page.runs) {
      const turn = turnOf(run);
      if (turn) yield { run, turn };
    }
    cursor = page.next;
  } while (cursor !== undefined);
}

/** The id of the conversation whose latest turn started last, if any. */
async function latestConversation(store: RunStore): Promise<string | undefined> {
  let best: { id: string; at: number } | undefined;
  for await (const { run, turn } of turnRuns(store)) {
    if (best === undefined || run.createdAt > best.at) best = { id: turn.conversation, at: run.createdAt };
  }
  return best?.id;
}

/** The item's data at the end of a turn's run, when it reached a terminal. */
async function endData(store: RunStore, runId: string): Promise<AskData | undefined> {
  const checkpoint = await store.getCheckpoint(runId, '1');
  if (checkpoint?.ending?.kind !== 'terminal') return undefined;
  return checkpoint.state.data as AskData;
}

/**
 * Rebuilds conversation `id` (default the most recent one) from the runs in `store`: its turns in order,
 * the memory the next question is asked with (the same rule as a running chat: the last answer that found
 * books), and the last turn when its run never ended. `E_NO_RUNS` when there is no such conversation.
 */
export async function loadConversation(
  store: RunStore,
  id: string | undefined,
  where: string,
): Promise<Conversation> {
  const wanted = id ?? (await latestConversation(store));
  if (wanted === undefined) {
    throw new SwitchyardError(
      'E_NO_RUNS',
      `no conversation is recorded in ${where}: start one with archivist chat`,
    );
  }
  const runs: { run: RunRecord; turn: number }[] = [];
  for await (const { run, turn } of turnRuns(store)) {
    if (turn.conversation === wanted) runs.push({ run, turn: turn.turn });
  }
  if (runs.length === 0) {
    throw new SwitchyardError(
      'E_NO_RUNS',
      `no conversation '${wanted}' is recorded in ${where}: leave the id out to resume the most recent one`,
    );
  }
  runs.sort((a, b) => a.turn - b.turn);
  const turns: TurnRecord[] = [];
  let memory: Memory | undefined;
  let interrupted: InterruptedTurn | undefined;
  for (const [index, { run, turn }] of runs.entries()) {
    const input = (run.input as AskData[])[0] as AskData;
    // A run still `running` was cut off by a killed process; an `aborted` one was cancelled by the reader
    // (Ctrl-C during the answer) and stays a turn without an answer.
    if (run.status === 'running' && index === runs.length - 1) {
      interrupted = { turn, question: input.question, runId: run.id };
      break;
    }
    const data = await endData(store, run.id);
    turns.push({
      turn,
      question: input.question,
      runId: run.id,
      ...(data?.answer === undefined ? {} : { answer: data.answer }),
    });
    if (data?.nextMemory && (data.shortlist ?? []).length > 0) memory = data.nextMemory;
  }
  return new Conversation(wanted, turns, memory, interrupted);
}
