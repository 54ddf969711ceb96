/** Where a command reads and writes; injected so tests can capture output without touching process streams. */
export interface CliIO {
  /** Writes a line of text to standard output (a newline is added when missing). */
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly cwd: string;
  /** Whether stdout is a terminal: bytes that are not text (a PNG) are refused there. */
  readonly isTTY: boolean;
  /** Standard input, read when a command is given `-` for a file to read (default: the process's). */
  readonly stdin?: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  /** Writes data to standard output exactly as given, for `-o -` (default: the process's stdout). */
  readonly write?: (data: string | Uint8Array) => Promise<void>;
  /** The stream the progress line of `run` and `resume` draws on (default: the process's stderr). */
  readonly progress?: NodeJS.WritableStream & { readonly isTTY?: boolean };
}

/** Writes `data` to the process's stdout and resolves once it is handed to the system. */
export function writeProcessStdout(data: string | Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(data, (error) => (error ? reject(error) : resolve()));
  });
}

/** The IO of the running process. */
export function processIO(): CliIO {
  return {
    out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
    err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
    cwd: process.cwd(),
    isTTY: Boolean(process.stdout.isTTY),
    stdin: process.stdin,
    write: writeProcessStdout,
    progress: process.stderr,
  };
}
