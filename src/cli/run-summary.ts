/**
 * The human summary of `switchyard run`: items per terminal, counters, and one line per item that failed
 * or needed retries, with the last error a node threw for it, so a failure is visible without `--events`.
 */
import type { ErrorSummary, RunEvent } from '../runtime/events.ts';
import type { RunResult } from '../runtime/run.ts';
import { formatDuration, plural } from './format.ts';

/** At most this many item lines are printed; the rest are counted in one line. */
export const MAX_ITEM_LINES = 20;

/** The errors seen for one input item (its scatter children and embedded runs included). */
interface ItemErrors {
  count: number;
  last: ErrorSummary;
  placement: string;
}

/** Collects, from the event stream, the errors of each input item; see {@link errorCollector}. */
export interface ErrorCollector {
  readonly onEvent: (event: RunEvent) => void;
  /** By input item id. */
  readonly errors: ReadonlyMap<string, ItemErrors>;
}

// Scatter children are `<parent>.<index>` and embedded runs `<parent>/<key>`: the input item is the first part.
function inputItem(id: string): string {
  const cut = id.search(/[./]/u);
  return cut === -1 ? id : id.slice(0, cut);
}

/** An event listener that keeps, per input item, the number of errors thrown and the last one. */
export function errorCollector(): ErrorCollector {
  const errors = new Map<string, ItemErrors>();
  const note = (item: string, placement: string, error: ErrorSummary) => {
    const key = inputItem(item);
    const seen = errors.get(key);
    errors.set(key, { count: (seen?.count ?? 0) + 1, last: error, placement });
  };
  return {
    errors,
    onEvent: (event) => {
      if (event.type === 'placement.end' && event.error !== undefined)
        note(event.item, event.placement, event.error);
      else if (event.type === 'item.failed') note(event.item, event.placement, event.error);
    },
  };
}

/** Text from a node on one line, so that each summary line stays one line. */
function oneLine(text: string): string {
  // Control characters (terminal escapes included) are shown as `?`, so a message cannot restyle the terminal.
  return String(text)
    .replace(/\s+/gu, ' ')
    .replace(/\p{Cc}/gu, '?')
    .trim();
}

function describeError(error: ErrorSummary): string {
  return `${oneLine(error.code)} ${oneLine(error.message)}`;
}

/** One line per item that did not complete or that met errors on its way, in item order. */
function itemLines(result: RunResult, errors: ReadonlyMap<string, ItemErrors>): string[] {
  const lines: string[] = [];
  const failedIds = new Set<string>();
  for (const f of result.failures) {
    failedIds.add(f.id);
    lines.push(`  failed: item ${f.id} at '${f.placement}': ${describeError(f.error)}`);
  }
  for (const a of result.aborted) {
    failedIds.add(a.item);
    lines.push(`  aborted: item ${a.item} at '${a.placement}' (waiting for ${a.waitingFor})`);
  }
  for (const w of result.waiting ?? []) {
    lines.push(`  waiting: item ${w.item} at '${w.placement}' for an answer`);
  }
  for (const item of result.items) {
    const seen = errors.get(item.id);
    if (item.outcome === 'failed') {
      const why =
        seen === undefined
          ? ''
          : `: last error at '${seen.placement}': ${describeError(seen.last)}${seen.count > 1 ? ` (${plural(seen.count, 'error')})` : ''}`;
      lines.push(`  failed: item ${item.id} ended at '${item.terminal}'${why}`);
    } else if (seen !== undefined) {
      lines.push(
        `  item ${item.id} completed after ${plural(seen.count, 'error')}; last at '${seen.placement}': ${describeError(seen.last)}`,
      );
    }
  }
  if (lines.length <= MAX_ITEM_LINES) return lines;
  const rest = lines.length - MAX_ITEM_LINES;
  return [
    ...lines.slice(0, MAX_ITEM_LINES),
    `  … and ${plural(rest, 'more item')}: see --json or --events for all of them`,
  ];
}

/** Items per terminal, counted from the items themselves (terminal keys are names from the document). */
function terminalLines(result: RunResult): string[] {
  const byTerminal = new Map<string, { outcome: string; count: number }>();
  for (const item of result.items) {
    const seen = byTerminal.get(item.terminal);
    byTerminal.set(item.terminal, { outcome: item.outcome, count: (seen?.count ?? 0) + 1 });
  }
  return [...byTerminal]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([terminal, { outcome, count }]) => `  ${terminal} (${outcome}): ${plural(count, 'item')}`);
}

/**
 * The summary lines: the run, the policy, items per terminal, counters, one line per failed, aborted or
 * retried item with its last error, phase failures, and the time.
 */
export function formatSummary(
  result: RunResult,
  options: {
    readonly policyFrom?: string | undefined;
    readonly virtualTime?: boolean;
    readonly errors?: ReadonlyMap<string, ItemErrors>;
  } = {},
): string[] {
  const lines = [`run ${result.runId}: ${result.status} — ${result.dag} (${result.hash.slice(0, 12)})`];
  if (options.policyFrom !== undefined) lines.push(`policy: ${options.policyFrom}`);
  lines.push(...terminalLines(result));
  const { retries, salvages, exhausted, executions, durationMs } = result.stats;
  lines.push(
    `${plural(executions, 'execution')}, ${plural(retries, 'retry').replace('retrys', 'retries')}, ${plural(salvages, 'salvage')}, ${exhausted} exhausted`,
  );
  lines.push(...itemLines(result, options.errors ?? new Map()));
  for (const p of result.phaseErrors)
    lines.push(`  phase '${p.placement}' failed: ${describeError(p.error)}`);
  lines.push(`time: ${formatDuration(durationMs)}${options.virtualTime ? ' (virtual clock)' : ''}`);
  return lines;
}
