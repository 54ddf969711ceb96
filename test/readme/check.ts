/**
 * Runs a transcript's commands in order, in one fresh sandbox (so a later command sees what an earlier one
 * wrote), and compares what each prints with what the transcript shows.
 */
import { type Comparison, compareOutput, type Ids, withRealIds } from './match.ts';
import { makeSandbox, runInSandbox } from './sandbox.ts';
import type { ShownCommand, Transcript } from './transcripts.ts';

/** One command of a transcript, run. */
export interface CheckedCommand extends Comparison {
  readonly shown: ShownCommand;
  /** The command as it ran, with the real run ids in place of those the transcript writes. */
  readonly ran: string;
  /** What it printed. */
  readonly real: readonly string[];
}

/** Runs every command of `transcript` and compares each one's output with the one shown. */
export async function checkTranscript(transcript: Transcript): Promise<CheckedCommand[]> {
  const sandbox = await makeSandbox();
  const ids: Ids = new Map();
  const checked: CheckedCommand[] = [];
  try {
    for (const shown of transcript.commands) {
      const ran = withRealIds(shown.command, ids);
      const printed = await runInSandbox(ran, sandbox);
      const real = [...printed.lines];
      // Blank lines that end the output are not compared: in a transcript they separate commands.
      while (real.length > 0 && (real.at(-1) ?? '').trim() === '') real.pop();
      checked.push({ shown, ran, real, ...compareOutput(shown.output, real, ids) });
    }
  } finally {
    await sandbox.remove();
  }
  return checked;
}

/**
 * The lines of the transcript block with each command's output replaced by what it printed, written as
 * the transcript writes it (its elisions, ids and times kept where they still match).
 */
export function rewrittenBlock(checked: readonly CheckedCommand[]): string[] {
  const lines: string[] = [];
  for (const command of checked) {
    lines.push(...command.shown.source, ...command.written);
    for (let i = 0; i < command.shown.gap; i++) lines.push('');
  }
  return lines;
}
