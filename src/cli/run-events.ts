/**
 * The `--events` file of `run` and `resume`: one JSON line per event, the same shape the store records;
 * `--events -` writes the lines to standard output.
 */
import { resolve } from 'node:path';
import { finished } from 'node:stream/promises';
import type { RunEvent } from '../runtime/events.ts';
import { safeStringify } from '../safe-json.ts';
import type { CliIO } from './io.ts';
import { openOutput, writeError } from './output.ts';
import { isDash } from './stdio.ts';

/** One event as JSON; a reason a node gave that JSON cannot hold (a BigInt, a cycle) is written safely. */
function eventLine(event: RunEvent): string {
  try {
    return JSON.stringify(event);
  } catch {
    return safeStringify(event);
  }
}

/** An open `--events` file. */
export interface EventsFile {
  readonly write: (event: RunEvent) => void;
  /** Flushes the file; a failed write is reported as `E_WRITE`. */
  readonly close: () => Promise<void>;
}

/**
 * Opens the `--events` file `path` (resolved against `io.cwd`) for writing, replacing what it held; `-`
 * writes each line to standard output through `io.out`.
 * @example
 * const events = await openEvents('run.jsonl', io);
 */
export async function openEvents(path: string, io: Pick<CliIO, 'cwd' | 'out'>): Promise<EventsFile> {
  if (isDash(path)) return { write: (event) => io.out(eventLine(event)), close: async () => {} };
  const { cwd } = io;
  const stream = (await openOutput(path, cwd)).createWriteStream();
  let failure: unknown;
  stream.on('error', (error) => {
    failure ??= error;
  });
  return {
    write: (event) => {
      if (failure === undefined) stream.write(`${eventLine(event)}\n`);
    },
    close: async () => {
      if (failure === undefined) {
        await finished(stream.end()).catch((error: unknown) => {
          failure ??= error;
        });
      } else stream.destroy();
      if (failure !== undefined) throw writeError(resolve(cwd, path), failure, cwd);
    },
  };
}
