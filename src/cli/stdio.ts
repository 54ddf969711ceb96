/**
 * `-` for standard input and output, the Unix habit: a command given `-` for a file to read reads standard
 * input (named `<stdin>` in its messages), and given `-` for a file to write writes standard output. Standard
 * input can be read once, so one command line may name it once.
 */
import type { Command } from 'commander';
import { decodeUtf8OrThrow } from '../document/decode-text.ts';
import { MAX_DOCUMENT_BYTES } from '../document/limits.ts';
import { SwitchyardError } from '../errors.ts';
import { type CliIO, writeProcessStdout } from './io.ts';

/** The path that means standard input or output. */
export const DASH = '-';

/** How a text read from standard input is named in messages, in place of a file name. */
export const STDIN_NAME = '<stdin>';

/** True when `path` is `-`: standard input or output. */
export function isDash(path: string | undefined): boolean {
  return path === DASH;
}

/**
 * True when a flag that takes JSON text or `@file` (`run --input`, `answer --data`) names standard input:
 * `@-`, or `-`, which no JSON text is.
 */
export function namesStdin(text: string | undefined): boolean {
  return text === DASH || text === `@${DASH}`;
}

/** One place of a command line that may name standard input: the flag as the user wrote it, and whether it does. */
export interface StdinUse {
  /** As the user would write it: `<dag> -`, `--input @-`, `--policy -`. */
  readonly flag: string;
  readonly used: boolean;
}

/**
 * Refuses a command line that names standard input in more than one place (`E_USAGE`): it can be read once.
 * @example
 * claimStdin([{ flag: '<dag> -', used: dag === '-' }, { flag: '--input @-', used: input === '@-' }]);
 */
export function claimStdin(uses: readonly StdinUse[]): void {
  const users = uses.filter((u) => u.used).map((u) => u.flag);
  if (users.length > 1) {
    throw new SwitchyardError(
      'E_USAGE',
      `standard input can be read once, but ${users.join(' and ')} both name it — put all but one of them in files`,
    );
  }
}

function mib(bytes: number): string {
  return `${Math.round(bytes / 1024 / 1024)} MiB`;
}

/**
 * Reads standard input to its end as UTF-8 text, at most `maxBytes` (`E_TOO_LARGE` past it). On a terminal
 * one line on stderr says how to end the text, so a forgotten pipe does not look like a hang. Empty input is
 * refused with `E_INPUT`, naming `what` was expected and how to pipe it in.
 * @example
 * const text = await readStdin(io, 'a DAG document', 'switchyard validate - < dag.jsonld');
 */
export async function readStdin(
  io: Pick<CliIO, 'stdin' | 'err'>,
  what: string,
  example: string,
  maxBytes: number = MAX_DOCUMENT_BYTES,
): Promise<string> {
  const stream = io.stdin ?? process.stdin;
  if (stream.isTTY === true) io.err(`switchyard: reading ${what} from standard input; end it with Ctrl-D`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array);
    size += bytes.length;
    if (size > maxBytes) {
      throw new SwitchyardError(
        'E_TOO_LARGE',
        `${STDIN_NAME} is over the limit of ${mib(maxBytes)} for ${what} — give a smaller one`,
      );
    }
    chunks.push(bytes);
  }
  const text = decodeUtf8OrThrow(Buffer.concat(chunks), STDIN_NAME, STDIN_NAME);
  if (text.trim() === '') {
    throw new SwitchyardError(
      'E_INPUT',
      `${STDIN_NAME} is empty, but - asks for ${what} there — pipe it in, e.g. ${example}`,
    );
  }
  return text;
}

/**
 * Writes `data` to standard output as it is (no newline added), through `io.write` when the IO has one;
 * text goes through `io.out` otherwise, bytes to the process's stdout.
 */
export async function writeStdout(
  io: Pick<CliIO, 'write' | 'out'>,
  data: string | Uint8Array,
): Promise<void> {
  if (io.write !== undefined) {
    await io.write(data);
    return;
  }
  if (typeof data === 'string') {
    io.out(data);
    return;
  }
  await writeProcessStdout(data);
}

/**
 * The flags (by commander's attribute name) that name something standard input or output cannot stand for,
 * with what they take (and after ` — `, how to do what `-` was meant for, when there is a way): `-` there is
 * refused rather than taken as a file named `-`.
 */
export const NOT_STDIO: Readonly<Record<string, string>> = Object.freeze({
  nodes: 'a module file (.ts or .js)',
  store: 'a run store file',
  dags: 'a folder of documents',
  outDir: 'a folder — to write one diagram to standard output, give -o - --format svg|png|mmd',
  chromium: 'the path of a Chromium program',
});

/**
 * Refuses, before any command of `program` runs, `-` given to a flag of `table` (default {@link NOT_STDIO}):
 * one `E_USAGE` line naming the flag and what it takes.
 * @example
 * refuseDashOptions(program);
 */
export function refuseDashOptions(
  program: Command,
  table: Readonly<Record<string, string>> = NOT_STDIO,
): void {
  program.hook('preAction', (_program, action) => {
    // A subcommand's flag may be parsed by a parent that defines it too (`runs show <id> --store -`).
    for (let command: Command | null = action; command !== null; command = command.parent) {
      const values = command.opts<Record<string, unknown>>();
      for (const option of command.options) {
        const entry = table[option.attributeName()];
        if (entry === undefined || values[option.attributeName()] !== DASH) continue;
        const [what, fix = 'name one (./- for a file named -)'] = entry.split(' — ');
        throw new SwitchyardError(
          'E_USAGE',
          `${option.long ?? option.flags} takes ${what}, not - (standard input or output) — ${fix}`,
        );
      }
    }
  });
}
