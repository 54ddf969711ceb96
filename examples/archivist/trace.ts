import type { RunEvent } from '../../src/runtime/events.ts';

function depth(item: string): number {
  return (item.match(/[./]/g) ?? []).length;
}

function where(item: string): string {
  const embed = item.split('/').slice(1);
  const child = /\.(\d+)$/.exec(item);
  return `${embed.map((e) => `${e} › `).join('')}`.concat(child ? `#${child[1]} ` : '');
}

/**
 * One line per step of the path a run took: each placement entered, each failure, each retry with its
 * reason and wait, each exhausted budget, each salvage, each closing and opening of a gate and each wait at
 * one, and the terminal. No clock times, so the same seed prints the same trace.
 */
export function traceLines(events: readonly RunEvent[]): string[] {
  const lines: string[] = [];
  for (const e of events) {
    const pad = '  '.repeat(1 + depth('item' in e && e.item !== undefined ? e.item : ''));
    switch (e.type) {
      case 'placement.start':
        lines.push(`${pad}→ ${where(e.item)}${e.placement}${e.visit > 1 ? ` (visit ${e.visit})` : ''}`);
        break;
      case 'placement.end':
        if (e.error) lines.push(`${pad}✗ ${e.placement} failed: ${e.error.message}`);
        break;
      case 'retry.scheduled':
        lines.push(
          `${pad}↻ retry ${e.from} → ${e.to} (budget ${e.budget}, attempt ${e.attempt}) after ${e.delayMs} ms [${e.delaySource}]${e.reason ? `: ${e.reason}` : ''}`,
        );
        break;
      case 'budget.exhausted':
        lines.push(
          `${pad}⊘ budget ${e.budget} ${e.why === 'spent' ? 'spent' : 'out of run time'} at ${e.from} → ${e.to}`,
        );
        break;
      case 'salvage':
        lines.push(`${pad}⚑ salvage ${e.from} → ${e.to}${e.reason ? `: ${e.reason}` : ''}`);
        break;
      case 'item.end':
        if (!e.item.includes('.')) lines.push(`${pad}■ ${where(e.item)}${e.terminal} (${e.outcome})`);
        break;
      case 'gate.closed':
        lines.push(
          `${pad}⏸ gate ${e.key} closed${e.placement ? ` by ${e.placement}` : ''}: ${e.reason}, ${e.hintMs === undefined ? 'for the back-off' : `Retry-After ${e.hintMs} ms`}`,
        );
        break;
      case 'gate.wait':
        lines.push(`${pad}⧗ ${where(e.item)}${e.placement} waits at gate ${e.key} (${e.why})`);
        break;
      case 'gate.opened':
        lines.push(`  ⏵ gate ${e.key} open after ${Math.round(e.closedMs)} ms`);
        break;
      case 'item.failed':
        lines.push(`${pad}✗ item ${e.item} failed at ${e.placement}: ${e.error.message}`);
        break;
      default:
        break;
    }
  }
  return lines;
}
