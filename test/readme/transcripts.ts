/**
 * The transcripts of a Markdown file: its fenced blocks that show a shell session, `$ command` lines each
 * followed by what the command prints.
 *
 * - A block is a transcript when its first line starts with `$ `. Every `$ ` line in it starts a command; a
 *   command line ending in `\` goes on on the next line, as in the shell. The lines up to the next `$ `
 *   line are the command's output (stdout and stderr, as a terminal shows them); blank lines at its end
 *   only separate it from the next command.
 * - A block whose nearest line above (blank lines aside) is `<!-- test/readme skips this block: why -->`
 *   is not run: the reason says what it needs (a browser, a server that runs until stopped).
 */

/** The marker above a transcript that is not run, with its reason. */
const SKIP = /^<!--\s*test\/readme skips this block:\s*(.+?)\s*-->$/u;
const FENCE = /^(`{3,}|~{3,})/u;

/** One `$ command` of a transcript and the output shown under it. */
export interface ShownCommand {
  /** The line of the Markdown file (from 1) where the command starts. */
  readonly line: number;
  /** The command's lines as written, `$ ` included. */
  readonly source: readonly string[];
  /** The command as the shell gets it: `$ ` taken off, continuation lines kept. */
  readonly command: string;
  /** The output shown, without the blank lines that end it. */
  readonly output: readonly string[];
  /** How many blank lines end the output (kept when the output is written again). */
  readonly gap: number;
}

/** A fenced block that shows a shell session. */
export interface Transcript {
  /** The index (from 0) of the block's opening fence line. */
  readonly open: number;
  /** The index (from 0) of its closing fence line. */
  readonly close: number;
  readonly commands: readonly ShownCommand[];
  /** Why the block is not run, when it is marked so. */
  readonly skip?: string;
}

/** What {@link readTranscripts} finds in a Markdown text. */
export interface Transcripts {
  readonly transcripts: readonly Transcript[];
  /** Lines (from 1) of skip markers that stand above no transcript: a marker that skips nothing. */
  readonly strayMarkers: readonly number[];
}

/** The transcripts of Markdown `text`, in order. */
export function readTranscripts(text: string): Transcripts {
  const lines = text.split('\n');
  const transcripts: Transcript[] = [];
  const markers = new Set<number>();
  for (const [i, line] of lines.entries()) if (SKIP.test(line)) markers.add(i);
  for (let i = 0; i < lines.length; i++) {
    const fence = FENCE.exec(lines[i] ?? '')?.[1];
    if (fence === undefined) continue;
    let close = i + 1;
    while (close < lines.length && !(lines[close] ?? '').startsWith(fence)) close++;
    const body = lines.slice(i + 1, close);
    if (body[0]?.startsWith('$ ')) {
      const marker = markerAbove(lines, i);
      const skip = marker === undefined ? undefined : SKIP.exec(lines[marker] ?? '')?.[1];
      if (marker !== undefined) markers.delete(marker);
      const commands = readCommands(body, i + 2);
      transcripts.push({ open: i, close, commands, ...(skip === undefined ? {} : { skip }) });
    }
    i = close;
  }
  return { transcripts, strayMarkers: [...markers].map((i) => i + 1) };
}

/** The index of the skip marker standing above the fence at `fence`, blank lines aside. */
function markerAbove(lines: readonly string[], fence: number): number | undefined {
  let i = fence - 1;
  while (i >= 0 && (lines[i] ?? '').trim() === '') i--;
  return i >= 0 && SKIP.test(lines[i] ?? '') ? i : undefined;
}

/** The commands of a transcript's `body`, whose first line is line `first` (from 1) of the file. */
function readCommands(body: readonly string[], first: number): ShownCommand[] {
  const commands: ShownCommand[] = [];
  let i = 0;
  while (i < body.length) {
    const start = i;
    const source = [body[i] ?? ''];
    while ((body[i] ?? '').endsWith('\\') && i + 1 < body.length) source.push(body[++i] ?? '');
    i++;
    const output: string[] = [];
    while (i < body.length && !(body[i] ?? '').startsWith('$ ')) output.push(body[i++] ?? '');
    let gap = 0;
    while (output.length > 0 && (output.at(-1) ?? '').trim() === '') {
      output.pop();
      gap++;
    }
    const command = source.join('\n').slice('$ '.length);
    commands.push({ line: first + start, source, command, output, gap });
  }
  return commands;
}
