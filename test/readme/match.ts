/**
 * How a command's real output is compared with the output a transcript shows. Everything must be equal,
 * character for character, hashes, counts, durations and paths included, except:
 *
 * - **elisions**: a line that holds only `…` stands for any number of lines, none included;
 * - **run ids**: a UUID stands for any UUID, the same one each time it is written in a transcript (a
 *   command may name the id an earlier command printed: it is run with the real id); an answer token
 *   (`aw-` and 24 hex digits, derived from the run id) likewise stands for any answer token;
 * - **wall-clock times**: an ISO-8601 UTC time (`2026-12-01T09:30:12.325Z`) stands for any such time;
 * - spaces at the end of a line, which editors take off.
 *
 * Durations are not loosened: the runs a transcript shows use the virtual clock, or print only the waits
 * their policy decides.
 */
import { align, alikeLines } from './align.ts';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|aw-[0-9a-f]{24}/gu;
const TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/gu;
/** The line that stands for any number of lines. */
export const ELISION = '…';

/** Run ids written in transcripts, each bound to the real id it stood for. */
export type Ids = Map<string, string>;

/** How a command's output compared with a transcript's. */
export interface Comparison {
  /** The output matches what the transcript shows. */
  readonly same: boolean;
  /**
   * The real output as the transcript would show it: the transcript's own lines where they match (its
   * elisions, ids and times kept), the real lines where they do not. Equal to the shown output when
   * {@link same}; what to write in its place when not.
   */
  readonly written: readonly string[];
  /** A line pairing that binds one written id to two real ids, or two written ids to one real id. */
  readonly idClash?: string;
}

/** `line` with its ids and times made placeholders and its trailing spaces taken off. */
function loosened(line: string): string {
  return line.replace(UUID, '<id>').replace(TIME, '<time>').trimEnd();
}

/** The ids written in `line`, in order. */
const idsOf = (line: string): string[] => line.match(UUID) ?? [];

/** Pairs the ids of a shown line with those of a real line, when they hold as many. */
function pairIds(mine: string, theirs: string, into: [string, string][]): void {
  const a = idsOf(mine);
  const b = idsOf(theirs);
  if (a.length === b.length) for (const [k, id] of a.entries()) into.push([id, b[k] ?? '']);
}

/**
 * Compares `real` output with `shown` output, binding the ids it shows to the real ones in `ids` (which
 * holds the bindings of the transcript's earlier commands and receives this one's).
 */
export function compareOutput(shown: readonly string[], real: readonly string[], ids: Ids): Comparison {
  const line = (lines: readonly string[], k: number) => lines[k] ?? '';
  const { cost, steps } = align({
    shown: shown.length,
    real: real.length,
    elision: (i) => line(shown, i).trim() === ELISION,
    matches: (i, j) => loosened(line(shown, i)) === loosened(line(real, j)),
    alike: (i, j) => alikeLines(loosened(line(shown, i)), loosened(line(real, j))),
  });
  const written: string[] = [];
  // Ids of matching lines must pair up; those of changed lines pair where they can, so that a later
  // command still names the right run and a written line keeps the id the transcript gave that run.
  const pairs: [string, string][] = [];
  const changed: [string, string][] = [];
  // A run of dropped shown lines and added real lines is a change of those lines too, paired in order.
  let dropped: string[] = [];
  let added: string[] = [];
  const flush = () => {
    for (const [k, mine] of dropped.entries()) if (k < added.length) pairIds(mine, line(added, k), changed);
    dropped = [];
    added = [];
  };
  for (const step of steps) {
    if (step.kind === 'drop') dropped.push(line(shown, step.shown));
    else if (step.kind === 'add') {
      added.push(line(real, step.real));
      written.push(line(real, step.real));
    } else {
      flush();
      if (step.kind === 'match') {
        pairIds(line(shown, step.shown), line(real, step.real), pairs);
        written.push(line(shown, step.shown));
      } else if (step.kind === 'replace') {
        pairIds(line(shown, step.shown), line(real, step.real), changed);
        written.push(line(real, step.real));
      } else written.push(line(shown, step.shown));
    }
  }
  flush();
  const idClash = bind(pairs, ids);
  // A changed line's ids bind where they can; a clash there is part of the change, not of the ids.
  for (const pair of changed) if (bind([pair], new Map(ids)) === undefined) bind([pair], ids);
  return { same: cost === 0 && idClash === undefined, written: writtenIds(written, ids), ...clash(idClash) };
}

function clash(idClash: string | undefined): { idClash?: string } {
  return idClash === undefined ? {} : { idClash };
}

/** Binds each written id of `pairs` to its real id; answers the first pairing that breaks a binding. */
function bind(pairs: readonly [string, string][], ids: Ids): string | undefined {
  for (const [mine, theirs] of pairs) {
    const bound = ids.get(mine);
    if (bound !== undefined && bound !== theirs)
      return `${mine} stands for ${bound} above and for ${theirs} here`;
    for (const [other, real] of ids)
      if (other !== mine && real === theirs) return `${mine} and ${other} both stand for ${theirs}`;
    ids.set(mine, theirs);
  }
  return undefined;
}

/** `lines` with every real id that a written id stands for put back as the written id. */
function writtenIds(lines: readonly string[], ids: Ids): string[] {
  const back = new Map([...ids].map(([mine, real]) => [real, mine]));
  return lines.map((line) => line.replace(UUID, (id) => back.get(id) ?? id));
}

/** `command` with the written ids it names replaced by the real ids they stand for. */
export function withRealIds(command: string, ids: Ids): string {
  return command.replace(UUID, (id) => ids.get(id) ?? id);
}
