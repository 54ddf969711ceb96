/**
 * What one run of the gates benchmark measured, the targets a gated run is held to, and the table that
 * puts each mode's run without a gate beside its run with one.
 */
import type { RunResult } from '../../src/runtime/run.ts';
import type { RateServerCounts } from './rate-server.ts';

/** One run of the workload, as the service and the run's result saw it. */
export interface Measurement {
  readonly items: number;
  /** Items at the `done` terminal. */
  readonly completed: number;
  /** Items at the `exhausted` terminal: their retry budget was spent. */
  readonly exhausted: number;
  /** Items that ended any other way (the `failed` terminal, the run's failure list, aborted). */
  readonly failed: number;
  /** Requests the service received, and those it answered 429. */
  readonly requests: number;
  readonly rejected: number;
  /** Closings of the gate's key (`gate.closed` events, each closing once). */
  readonly closings: number;
  /** Wall time of the run, ms. */
  readonly ms: number;
}

/** The measurement of a run that ended with `result`, given what the service counted meanwhile. */
export function measure(
  result: RunResult,
  counts: RateServerCounts,
  closings: number,
  ms: number,
): Measurement {
  const at = (terminal: string) => result.items.filter((item) => item.terminal === terminal).length;
  const completed = at('done');
  const exhausted = at('exhausted');
  const items = result.items.length + result.failures.length + result.aborted.length;
  return {
    items,
    completed,
    exhausted,
    failed: items - completed - exhausted,
    requests: counts.requests,
    rejected: counts.rejected,
    closings,
    ms,
  };
}

/** The bounds a run with the gate is held to. */
export const GATED_TARGETS = { exhausted: 0, requestsPerItem: 1.05, timeToIdeal: 1.15 } as const;

/** The time `items` take at the service's pace, ms: one every `periodMs / limit`. */
export function idealMs(items: number, rate: { readonly limit: number; readonly periodMs: number }): number {
  return (items / rate.limit) * rate.periodMs;
}

/** The targets a gated run missed, each as a short phrase; empty when it met them all. */
export function missedTargets(m: Measurement, ideal: number): string[] {
  const missed: string[] = [];
  if (m.exhausted + m.failed > GATED_TARGETS.exhausted)
    missed.push(`${m.exhausted + m.failed} not completed`);
  const perItem = m.requests / m.items;
  if (perItem > GATED_TARGETS.requestsPerItem)
    missed.push(`${perItem.toFixed(3)} requests/item > ${GATED_TARGETS.requestsPerItem}`);
  const ratio = m.ms / ideal;
  if (ratio > GATED_TARGETS.timeToIdeal)
    missed.push(`${ratio.toFixed(3)}× ideal > ${GATED_TARGETS.timeToIdeal}×`);
  return missed;
}

/** One mode's two runs; a run that could not be measured is undefined. */
export interface ModePair {
  readonly label: string;
  readonly ungated: Measurement | undefined;
  readonly gated: Measurement | undefined;
}

/**
 * The table's rows: a header of modes and policies, then one row per figure with a column per mode and
 * policy, the run without a gate beside the run with one.
 */
export function tableRows(pairs: readonly ModePair[], ideal: number): string[][] {
  const header = [''];
  const policies = [''];
  for (const pair of pairs) header.push(pair.label, '');
  for (const _pair of pairs) policies.push('no gate', 'gate');
  const row = (name: string, cell: (m: Measurement, gated: boolean) => string) => [
    name,
    ...pairs.flatMap((pair) => [
      pair.ungated === undefined ? '—' : cell(pair.ungated, false),
      pair.gated === undefined ? '—' : cell(pair.gated, true),
    ]),
  ];
  return [
    header,
    policies,
    row('completed', (m) => String(m.completed)),
    row('exhausted (budget of 3 spent)', (m) => String(m.exhausted)),
    row('failed otherwise', (m) => String(m.failed)),
    row('requests sent', (m) => String(m.requests)),
    row('  of which 429', (m) => String(m.rejected)),
    row('requests per item', (m) => (m.requests / m.items).toFixed(3)),
    row('gate closings', (m, gated) => (gated ? String(m.closings) : '–')),
    row('time', (m) => `${(m.ms / 1000).toFixed(2)} s`),
    row(`time / ideal (${(ideal / 1000).toFixed(0)} s)`, (m) => `${(m.ms / ideal).toFixed(3)}×`),
    row('targets', (m, gated) => (!gated ? '' : missedTargets(m, ideal).length === 0 ? 'met' : 'MISSED')),
  ];
}
