/**
 * Reads a run trace (the dispatcher's JSONL event stream) and sums it up per DAG document: which
 * placements items visited, which edges they took and how often, how long retries waited, where they
 * were salvaged. The diagram overlay draws this summary.
 */
import { readFile, stat } from 'node:fs/promises';
import type { RouteKind } from '../document/model.ts';
import { SwitchyardError } from '../errors.ts';
import { EVENT_TYPES, type RetryScheduledEvent, type RunEvent } from '../runtime/events.ts';

/** An edge kind as a trace sees it: a route kind, or a retry route's exhaustion edge. */
export type TracedKind = RouteKind | 'exhausted';

/** How often items took one edge. */
export interface EdgeTrace {
  readonly from: string;
  readonly output: string;
  readonly to: string;
  readonly kind: TracedKind;
  readonly count: number;
}

/**
 * The waits of one retry route (`from` on `output` → `to`, spending `budget`), in the order they were
 * scheduled. `output` is empty when the trace does not say it (files written before events carried it).
 */
export interface RetryTrace {
  readonly from: string;
  readonly output: string;
  readonly to: string;
  readonly budget: string;
  readonly waitsMs: readonly number[];
  readonly totalMs: number;
}

/** Items that went from `from` to the recovery placement `to`. */
export interface SalvageTrace {
  readonly from: string;
  readonly to: string;
  readonly count: number;
}

/** Everything a trace says about one DAG document. */
export interface DagTrace {
  readonly dag: string;
  /** Placement key → executions. */
  readonly visits: ReadonlyMap<string, number>;
  /** By {@link edgeKey}. */
  readonly edges: ReadonlyMap<string, EdgeTrace>;
  /** By {@link retryKey}. */
  readonly retries: ReadonlyMap<string, RetryTrace>;
  /** By `from` and `to` ({@link retryKey} without a budget). */
  readonly salvages: ReadonlyMap<string, SalvageTrace>;
}

/** A trace summed up per DAG IRI. */
export interface TraceSummary {
  readonly dags: ReadonlyMap<string, DagTrace>;
}

/** The key of an edge in {@link DagTrace.edges}. */
export function edgeKey(from: string, output: string, kind: TracedKind): string {
  return `${from}\u0000${output}\u0000${kind}`;
}

/**
 * The key of a retry route in {@link DagTrace.retries} (and, without budget and output, of
 * {@link DagTrace.salvages}). An empty `output` is the key of waits whose output the trace does not say.
 */
export function retryKey(from: string, to: string, budget = '', output = ''): string {
  return `${from}\u0000${to}\u0000${budget}\u0000${output}`;
}

/** The waits of a retry route: those recorded for its output, else those of a trace that names no output. */
export function retryWaits(
  trace: DagTrace,
  from: string,
  to: string,
  budget: string,
  output: string,
): RetryTrace | undefined {
  return (
    trace.retries.get(retryKey(from, to, budget, output)) ?? trace.retries.get(retryKey(from, to, budget))
  );
}

const TYPES: ReadonlySet<string> = new Set(EVENT_TYPES);

// The string fields each event type needs for the summary; the rest of an event is not read.
const REQUIRED: Readonly<Record<string, readonly string[]>> = {
  'placement.start': ['dag', 'placement'],
  route: ['dag', 'from', 'output', 'to', 'kind'],
  'retry.scheduled': ['dag', 'from', 'to', 'budget'],
  salvage: ['dag', 'from', 'to'],
  'item.end': ['dag', 'terminal'],
};

/**
 * Parses JSONL run events; blank lines are skipped. A line that is not an event throws `E_TRACE` naming
 * the file and line.
 * @example
 * const events = parseTrace(await readFile('run.jsonl', 'utf8'), 'run.jsonl');
 */
export function parseTrace(text: string, file = 'trace'): RunEvent[] {
  const events: RunEvent[] = [];
  const lines = text.split(/\r?\n/u);
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const where = `${file}:${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new SwitchyardError(
        'E_TRACE',
        `${where}: not a JSON event — ${(error as Error).message}; pass the file written by 'run --events'`,
        { cause: error },
      );
    }
    events.push(checkEvent(value, where));
  });
  return events;
}

function checkEvent(value: unknown, where: string): RunEvent {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SwitchyardError('E_TRACE', `${where}: not a JSON event — expected an object with a 'type'`);
  }
  const record = value as Record<string, unknown>;
  const type = record.type;
  if (typeof type !== 'string' || !TYPES.has(type)) {
    throw new SwitchyardError(
      'E_TRACE',
      `${where}: not a JSON event — unknown type ${JSON.stringify(type)}; expected one of ${EVENT_TYPES.join(', ')}`,
    );
  }
  for (const field of REQUIRED[type] ?? []) {
    if (typeof record[field] !== 'string') {
      throw new SwitchyardError('E_TRACE', `${where}: '${type}' event lacks the string field '${field}'`);
    }
  }
  if (type === 'retry.scheduled' && record.output !== undefined && typeof record.output !== 'string') {
    throw new SwitchyardError('E_TRACE', `${where}: 'retry.scheduled' event has a non-string 'output'`);
  }
  if (type === 'retry.scheduled' && typeof record.delayMs !== 'number') {
    throw new SwitchyardError(
      'E_TRACE',
      `${where}: 'retry.scheduled' event lacks the number field 'delayMs'`,
    );
  }
  return value as RunEvent;
}

/** A retry trace being summed up: its wait list grows in place, so each event costs the same. */
interface MutableRetryTrace {
  readonly from: string;
  readonly output: string;
  readonly to: string;
  readonly budget: string;
  readonly waitsMs: number[];
  totalMs: number;
}

/** A count being summed up, for edges and salvages. */
type Counted<T extends { readonly count: number }> = Omit<T, 'count'> & { count: number };

interface MutableDagTrace {
  dag: string;
  visits: Map<string, number>;
  edges: Map<string, Counted<EdgeTrace>>;
  retries: Map<string, MutableRetryTrace>;
  salvages: Map<string, Counted<SalvageTrace>>;
}

/** Sums up events per DAG IRI: visits, edges taken, retry waits, salvages; linear in the number of events. */
export function summariseTrace(events: readonly RunEvent[]): TraceSummary {
  const dags = new Map<string, MutableDagTrace>();
  const of = (dag: string): MutableDagTrace => {
    let trace = dags.get(dag);
    if (!trace) {
      trace = { dag, visits: new Map(), edges: new Map(), retries: new Map(), salvages: new Map() };
      dags.set(dag, trace);
    }
    return trace;
  };
  events.forEach((event, index) => {
    switch (event.type) {
      case 'placement.start': {
        const visits = of(event.dag).visits;
        visits.set(event.placement, (visits.get(event.placement) ?? 0) + 1);
        break;
      }
      case 'item.end': {
        // Terminals run no node, so an item reaching one shows up as its end, not as a placement start.
        const visits = of(event.dag).visits;
        visits.set(event.terminal, (visits.get(event.terminal) ?? 0) + 1);
        break;
      }
      case 'route': {
        const edges = of(event.dag).edges;
        const key = edgeKey(event.from, event.output, event.kind);
        const seen = edges.get(key);
        // The last event's target wins, as each route event says where that edge went.
        if (seen === undefined) {
          edges.set(key, {
            from: event.from,
            output: event.output,
            to: event.to,
            kind: event.kind,
            count: 1,
          });
        } else {
          edges.set(key, { ...seen, to: event.to, count: seen.count + 1 });
        }
        break;
      }
      case 'retry.scheduled': {
        const retries = of(event.dag).retries;
        const output = scheduledOutput(events, index, event);
        const key = retryKey(event.from, event.to, event.budget, output);
        let retry = retries.get(key);
        if (retry === undefined) {
          retry = { from: event.from, output, to: event.to, budget: event.budget, waitsMs: [], totalMs: 0 };
          retries.set(key, retry);
        }
        retry.waitsMs.push(event.delayMs);
        retry.totalMs += event.delayMs;
        break;
      }
      case 'salvage': {
        const salvages = of(event.dag).salvages;
        const key = retryKey(event.from, event.to);
        const seen = salvages.get(key);
        if (seen === undefined) salvages.set(key, { from: event.from, to: event.to, count: 1 });
        else seen.count += 1;
        break;
      }
      default:
        break;
    }
  });
  return { dags };
}

/**
 * The output of a retry wait. Older traces leave it out of `retry.scheduled`; the dispatcher writes the
 * retry's `route` event right next to it, so a neighbouring retry route of the same item says it.
 */
function scheduledOutput(events: readonly RunEvent[], index: number, event: RetryScheduledEvent): string {
  if (typeof event.output === 'string') return event.output;
  for (const near of [events[index - 1], events[index + 1]]) {
    if (
      near?.type === 'route' &&
      near.kind === 'retry' &&
      near.item === event.item &&
      near.dag === event.dag &&
      near.from === event.from &&
      near.to === event.to
    ) {
      return near.output;
    }
  }
  return '';
}

/** Reads and sums up a trace file; a missing or special file (FIFO, device) or a bad line throws `E_TRACE`. */
export async function readTrace(path: string): Promise<TraceSummary> {
  let text: string;
  // Reading a FIFO or a device would wait for ever; a trace is a file that `run --events` wrote.
  const found = await stat(path).catch(() => undefined);
  if (found !== undefined && !found.isFile()) {
    throw new SwitchyardError(
      'E_TRACE',
      `cannot read trace ${path}: it is not a regular file; pass the file written by 'run --events'`,
    );
  }
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new SwitchyardError(
      'E_TRACE',
      `cannot read trace ${path}: ${(error as Error).message}; check the path`,
      {
        cause: error,
      },
    );
  }
  return summariseTrace(parseTrace(text, path));
}
