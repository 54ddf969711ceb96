import { PassThrough, Readable } from 'node:stream';
import { main } from '../../src/cli/main.ts';

/** What a test gives the program besides its arguments. */
export interface RunCliOptions {
  /** Standard input: these bytes, then its end. Without it, standard input is empty. */
  readonly stdin?: string | Uint8Array;
  /** Whether stdout is a terminal (default false). */
  readonly isTTY?: boolean;
}

/** A captured run: exit code, stdout as text, stderr. */
export interface CliResult {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** Runs the `switchyard` CLI in-process with captured output; progress draws on a stream that is no terminal. */
export async function runCli(
  args: readonly string[],
  cwd: string = process.cwd(),
  options: RunCliOptions = {},
): Promise<CliResult> {
  const { code, out, err } = await runCliBytes(args, cwd, options);
  return { code, out, err };
}

/** {@link runCli}, with the bytes written to stdout as well. */
export async function runCliBytes(
  args: readonly string[],
  cwd: string = process.cwd(),
  options: RunCliOptions = {},
): Promise<CliResult & { readonly bytes: Buffer }> {
  let out = '';
  let err = '';
  const chunks: Buffer[] = [];
  const line = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);
  const stdin = Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]);
  const code = await main(['node', 'switchyard', ...args], {
    out: (text) => {
      out += line(text);
      chunks.push(Buffer.from(line(text)));
    },
    err: (text) => {
      err += line(text);
    },
    cwd,
    isTTY: options.isTTY ?? false,
    stdin,
    write: async (data) => {
      const bytes = Buffer.from(data);
      chunks.push(bytes);
      out += bytes.toString('utf8');
    },
    progress: new PassThrough(),
  });
  return { code, out, err, bytes: Buffer.concat(chunks) };
}
