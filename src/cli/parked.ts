/**
 * What the command line says of items parked at an await placement: when their deadline comes, and the
 * exact `switchyard answer` command that answers each. `run`, `resume`, `answer` and `runs show` print it.
 */
import type { ParkedItem } from '../awaits/desk.ts';
import { displayPath } from './output.ts';
import { storePathOf } from './store-option.ts';

/** A time from now for people: `in 59 min`, `in 2 h 5 min`, `3 min ago`. */
export function fromNow(ms: number): string {
  const abs = Math.abs(ms);
  const minutes = Math.round(abs / 60_000);
  let text: string;
  if (abs < 60_000) text = `${Math.round(abs / 1000)} s`;
  else if (minutes < 120) text = `${minutes} min`;
  else if (minutes < 48 * 60) {
    const rest = minutes % 60;
    text = `${Math.floor(minutes / 60)} h${rest === 0 ? '' : ` ${rest} min`}`;
  } else text = `${Math.round(minutes / 1440)} d`;
  return ms >= 0 ? `in ${text}` : `${text} ago`;
}

/** A word of a command line, quoted for a POSIX shell when it needs it. */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/u.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/** Where the answer command finds the run and what it resumes it with. */
export interface AnswerCommandContext {
  /** The node module the run goes on with, as the user named it; left out when unknown. */
  readonly nodes?: string | undefined;
  /** The absolute path of the SQLite store the run is recorded in. */
  readonly storePath?: string | undefined;
  /** The Redis URL the run is recorded in, instead. */
  readonly redis?: string | undefined;
  readonly cwd: string;
}

/**
 * The command that answers a parked item: its outputs as `<a|b>`, `--nodes` so that it resumes the run, and
 * `--store` unless the store is the one the command finds by itself.
 * @example
 * answerCommand('r1', parked, { nodes: 'nodes.ts', storePath: '/w/runs.db', cwd: '/w' })
 * // 'switchyard answer r1 aw-… <approved|rejected> --nodes nodes.ts --store runs.db'
 */
export function answerCommand(runId: string, parked: ParkedItem, context: AnswerCommandContext): string {
  const found = storePathOf({}, process.env, context.cwd);
  const { storePath, redis } = context;
  const store =
    redis !== undefined
      ? ` --redis ${shellWord(redis)}`
      : storePath === undefined || found === storePath
        ? ''
        : ` --store ${shellWord(displayPath(storePath, context.cwd))}`;
  const nodes = context.nodes === undefined ? '' : ` --nodes ${shellWord(context.nodes)}`;
  return `switchyard answer ${shellWord(runId)} ${parked.token} <${parked.answers.join('|')}>${nodes}${store}`;
}

/**
 * One line per parked item: the item, its placement, its deadline (absolute and from `now`, wall time) and
 * the command that answers it.
 * @example
 * parkedLines('r1', parked, context, Date.now())
 * // ["item 1 waits for an answer at 'review' until 2026-12-03T17:20:00.000Z (in 59 min): switchyard answer r1 aw-… <approved|rejected> --nodes nodes.ts"]
 */
export function parkedLines(
  runId: string,
  parked: readonly ParkedItem[],
  context: AnswerCommandContext,
  now: number,
): string[] {
  return parked.map(
    (p) =>
      `item ${p.item} waits for an answer at '${p.placement}' until ${new Date(p.deadlineAt).toISOString()} (${fromNow(p.deadlineAt - now)}): ${answerCommand(runId, p, context)}`,
  );
}

/** The line a run without a store says when an item first parks: nothing outside the process can answer it. */
export const IN_MEMORY_AWAIT_NOTE =
  'note: with --no-store nothing outside this process can answer an await: its items wait until their deadline routes them; record the run (--store <file>, or leave out --no-store) to answer them with `switchyard answer`';

/**
 * Says on stderr, for a run that ended `waiting`, each parked item and the command that answers it.
 * @example
 * tellParked(io.err, result, { nodes: 'nodes.ts', storePath, cwd: io.cwd }, Date.now());
 */
export function tellParked(
  err: (line: string) => void,
  result: { readonly runId: string; readonly status: string; readonly parked?: readonly ParkedItem[] },
  context: AnswerCommandContext,
  now: number,
): void {
  if (result.status !== 'waiting') return;
  const parked = result.parked ?? [];
  err(
    `run ${result.runId} waits for ${parked.length === 1 ? 'an answer' : `${parked.length} answers`}; it holds no process until one is given:`,
  );
  for (const line of parkedLines(result.runId, parked, context, now)) err(`  ${line}`);
}
