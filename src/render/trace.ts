/**
 * Reads a run trace (the dispatcher's JSONL event stream) and sums it up per DAG document: which
 * placements items visited, which edges they took and how often, how long retries waited (and which waits
 * are still under way), how long items waited at gates before each placement, and along which edge items
 * were salvaged. The diagram overlay draws this summary.
 */

import { readFile, stat } from 'node:fs/promises';
import { decodeUtf8OrThrow } from '../document/decode-text.ts';
import type { RouteKind } from '../document/model.ts';
import { SwitchyardError } from '../errors.ts';
import type { RetryScheduledEvent, RouteEvent, RunEvent } from '../runtime/events.ts';
import { AwaitWaitTally, type AwaitWaitTrace } from './trace-await-waits.ts';
import { GateWaitTally, type GateWaitTrace } from './trace-gate-waits.ts';
import { parseTrace } from './trace-parse.ts';
import { WaitBook } from './trace-waits.ts';

export type { AwaitWaitTrace } from './trace-await-waits.ts';
export type { GateWaitTrace } from './trace-gate-waits.ts';
export { parseTrace } from './trace-parse.ts';

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
  /** The waits that are over, each as long as it lasted (cut short by the run's end or a cancellation). */
  readonly waitsMs: readonly number[];
  /** The sum of {@link RetryTrace.waitsMs}. */
  readonly totalMs: number;
  /** The delays of the waits still under way where the trace ends (a run in progress). */
  readonly pendingMs: readonly number[];
}

/**
 * Items salvaged along one edge: a `salvage` route, or a retry route's exhaustion edge (`kind` `exhausted`),
 * from `from` on `output` to the recovery placement `to`.
 */
export interface SalvageTrace {
  readonly from: string;
  readonly output: string;
  readonly to: string;
  readonly kind: 'salvage' | 'exhausted';
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
  /** By the {@link edgeKey} of the edge the items took to the recovery placement. */
  readonly salvages: ReadonlyMap<string, SalvageTrace>;
  /** Placement key → the waits at gates before its executions. */
  readonly gateWaits: ReadonlyMap<string, GateWaitTrace>;
  /** Await placement key → its items' waits for answers, and how each ended. */
  readonly awaitWaits: ReadonlyMap<string, AwaitWaitTrace>;
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
 * The key of a retry route in {@link DagTrace.retries}. An empty `output` is the key of waits whose output
 * the trace does not say.
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

/** The route of a retry trace being summed up; its waits are read from the {@link WaitBook} at the end. */
type RetryRoute = Omit<RetryTrace, 'waitsMs' | 'totalMs' | 'pendingMs'>;

/** A count being summed up, for edges and salvages. */
type Counted<T extends { readonly count: number }> = Omit<T, 'count'> & { count: number };

interface MutableDagTrace {
  dag: string;
  visits: Map<string, number>;
  edges: Map<string, Counted<EdgeTrace>>;
  retries: Map<string, RetryRoute>;
  salvages: Map<string, Counted<SalvageTrace>>;
}

/**
 * Sums up events per DAG IRI: visits, edges taken, retry waits, waits at gates and for answers, salvages; linear in the
 * number of events.
 * @example
 * const summary = summariseTrace(parseTrace(text));
 */
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
  const waits = new WaitBook();
  const gateWaits = new GateWaitTally();
  const awaitWaits = new AwaitWaitTally();
  // The last edge each item took: a salvage event follows the route event of the edge it came along.
  const lastRoute = new Map<string, RouteEvent>();
  events.forEach((event, index) => {
    waits.see(event);
    gateWaits.see(event);
    awaitWaits.see(event);
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
        lastRoute.set(event.item, event);
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
        if (!retries.has(key)) {
          retries.set(key, { from: event.from, output, to: event.to, budget: event.budget });
        }
        waits.scheduled(`${event.dag}\u0000${key}`, event);
        break;
      }
      case 'salvage': {
        const route = lastRoute.get(event.item);
        const came =
          route !== undefined &&
          route.dag === event.dag &&
          route.from === event.from &&
          route.to === event.to &&
          (route.kind === 'salvage' || route.kind === 'exhausted')
            ? { output: route.output, kind: route.kind }
            : { output: '', kind: 'salvage' as const };
        const salvages = of(event.dag).salvages;
        const key = edgeKey(event.from, came.output, came.kind);
        const seen = salvages.get(key);
        if (seen === undefined) salvages.set(key, { from: event.from, to: event.to, ...came, count: 1 });
        else seen.count += 1;
        break;
      }
      default:
        break;
    }
  });
  const summary = new Map<string, DagTrace>();
  for (const [iri, trace] of dags) {
    const retries = new Map<string, RetryTrace>();
    for (const [key, route] of trace.retries) {
      retries.set(key, { ...route, ...waits.waitsOf(`${iri}\u0000${key}`) });
    }
    summary.set(iri, {
      ...trace,
      retries,
      gateWaits: gateWaits.waitsOf(iri),
      awaitWaits: awaitWaits.waitsOf(iri),
    });
  }
  return { dags: summary };
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
  let bytes: Buffer;
  // Reading a FIFO or a device would wait for ever; a trace is a file that `run --events` wrote.
  const found = await stat(path).catch(() => undefined);
  if (found !== undefined && !found.isFile()) {
    throw new SwitchyardError(
      'E_TRACE',
      `cannot read trace ${path}: it is not a regular file; pass the file written by 'run --events'`,
    );
  }
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new SwitchyardError(
      'E_TRACE',
      `cannot read trace ${path}: ${(error as Error).message}; check the path`,
      {
        cause: error,
      },
    );
  }
  return summariseTrace(parseTrace(decodeUtf8OrThrow(bytes, path, `trace ${path}`), path));
}
