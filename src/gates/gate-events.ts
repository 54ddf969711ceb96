/**
 * The events an item's wait at a gate key sends to its run, the same from every executor's gates.
 */
import type { GateEntry } from './gates.ts';
import type { GateWhy } from './types.ts';

/** `gate.wait`: the entry waits at `key` of `gate` for `why`; `untilMs` with a closing's end. */
export function tellWait(
  entry: GateEntry,
  gate: string,
  key: string,
  why: GateWhy,
  until: number | undefined,
): void {
  const { events, item, dag, placement } = entry;
  events?.emit({
    type: 'gate.wait',
    item,
    dag,
    placement,
    gate,
    key,
    why,
    ...(why === 'closed' && until !== undefined ? { untilMs: until } : {}),
  });
}

/** `gate.passed`: the entry, told it waited, went through `key` of `gate` after `waitedMs`. */
export function tellPassed(entry: GateEntry, gate: string, key: string, waitedMs: number): void {
  const { events, item, dag, placement } = entry;
  events?.emit({ type: 'gate.passed', item, dag, placement, gate, key, waitedMs });
}
