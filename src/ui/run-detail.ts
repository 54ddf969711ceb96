/**
 * A run's page as data: what `switchyard runs show` reports (each item's place, retries, waits, budgets, the
 * items parked at awaits with their tokens and the commands that answer them),
 * each item's timeline, each gate key's timeline, and the run's path drawn over its DAG as `render --run` draws it, from the documents
 * the run recorded.
 */
import type { AnswerCommandContext } from '../cli/parked.ts';
import { type RunView, runView } from '../cli/runs/views.ts';
import type { Dag, DagLibrary } from '../document/model.ts';
import { toMermaid } from '../render/mermaid.ts';
import { parseTrace, summariseTrace } from '../render/trace.ts';
import type { RunRecord, RunStore } from '../store/types.ts';
import { type DiagramTooLarge, diagramTooLarge } from './diagram-size.ts';
import { gatesOfRun } from './gates-shown.ts';
import { isStalled, type ShownItem, shownItems, stopEntries } from './item-state.ts';
import { itemTimelines, type TimelineEntry } from './timeline.ts';

/** Everything the run page shows. */
export interface RunDetail extends Omit<RunView, 'items'> {
  /** Each item with the state its badge shows. */
  readonly items: readonly ShownItem[];
  /** Marked running, but no process moves it on: its lease expired. */
  readonly stalled: boolean;
  /** The DAG's name, when the run recorded its document. */
  readonly dagName?: string;
  /** Item path → its timeline. */
  readonly timelines: Readonly<Record<string, readonly TimelineEntry[]>>;
  /** Gate key → its closings and reopenings (each key's state is in `gates`, as `runs show` says it). */
  readonly gateTimelines: Readonly<Record<string, readonly TimelineEntry[]>>;
  /** The highest event sequence number read, so that live updates go on after it. */
  readonly lastSeq?: number;
  /** The path drawn over the diagram, per colour scheme; absent when the run recorded no document. */
  readonly mermaid?: { readonly light: string; readonly dark: string };
  /** Instead of {@link RunDetail.mermaid}: the run's document is too large to draw in the page. */
  readonly diagramTooLarge?: DiagramTooLarge;
  /** The run's input as JSON text, cut at {@link INPUT_SHOWN} characters. */
  readonly input: string;
  /** The server's wall time when this was read, so that the page counts waits down on the server's clock. */
  readonly serverNow: number;
}

/** The most characters of a run's input the page gets; `switchyard runs events` and the store keep it all. */
export const INPUT_SHOWN = 20_000;

/** The input as indented JSON, cut with a note when longer than {@link INPUT_SHOWN}. */
function inputText(input: unknown): string {
  const text = JSON.stringify(input, null, 2) ?? 'null';
  if (text.length <= INPUT_SHOWN) return text;
  return `${text.slice(0, INPUT_SHOWN)}\n… ${text.length - INPUT_SHOWN} more characters`;
}

/** Whether a recorded document looks like a DAG model: the fields the diagram needs. */
function isDag(value: unknown): value is Dag {
  const v = value as Partial<Dag> | null | undefined;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.id === 'string' &&
    Array.isArray(v.placements) &&
    Array.isArray(v.entrypoints) &&
    Array.isArray(v.budgets)
  );
}

/** The library of the documents a run embeds, as it recorded them. */
function recordedLibrary(run: RunRecord): DagLibrary {
  const byIri = new Map<string, Dag>();
  for (const d of [run.dag, ...run.documents]) if (isDag(d.document)) byIri.set(d.iri, d.document);
  return { get: (iri) => byIri.get(iri) };
}

/**
 * Reads run `run` from `store` as its page shows it, at wall time `now`; `answering` says where the
 * commands that answer its parked items find the store.
 * @example
 * const detail = await runDetail(store, run, Date.now());
 */
export async function runDetail(
  store: RunStore,
  run: RunRecord,
  now: number,
  answering?: AnswerCommandContext,
): Promise<RunDetail> {
  const [view, records] = await Promise.all([runView(store, run, now, answering), store.readEvents(run.id)]);
  const events = parseTrace(records.map((r) => JSON.stringify(r.body)).join('\n'), `run ${run.id}`);
  const gates = gatesOfRun(events);
  const items = shownItems(view, gates.positions);
  const byItem = itemTimelines(events);
  for (const [id, entry] of stopEntries(view, items, events))
    byItem.set(id, [...(byItem.get(id) ?? []), entry]);
  const timelines = Object.fromEntries(byItem);
  const lastSeq = records.at(-1)?.seq;
  const dag = run.dag.document;
  let mermaid: RunDetail['mermaid'];
  const tooLarge = isDag(dag) ? diagramTooLarge(dag) : undefined;
  if (isDag(dag) && tooLarge === undefined) {
    const trace = summariseTrace(events);
    const library = recordedLibrary(run);
    const draw = (theme: 'light' | 'dark') => toMermaid(dag, { theme, trace, library });
    mermaid = { light: draw('light'), dark: draw('dark') };
  }
  return {
    ...view,
    items,
    stalled: isStalled(view),
    ...(isDag(dag) ? { dagName: dag.name } : {}),
    timelines,
    gateTimelines: Object.fromEntries(gates.timelines),
    input: inputText(run.input),
    ...(lastSeq === undefined ? {} : { lastSeq }),
    ...(mermaid === undefined ? {} : { mermaid }),
    ...(tooLarge === undefined ? {} : { diagramTooLarge: tooLarge }),
    serverNow: now,
  };
}
