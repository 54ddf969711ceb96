/** Where a command writes; injected so tests can capture output without touching process streams. */
export interface CliIO {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly cwd: string;
  /** Whether stdout is a terminal (spinners, colours). */
  readonly isTTY: boolean;
}

/** The IO of the running process. */
export function processIO(): CliIO {
  return {
    out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
    err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
    cwd: process.cwd(),
    isTTY: Boolean(process.stdout.isTTY),
  };
}
