/**
 * What the progress line says of the items parked at await placements: how many wait for an answer at the
 * placement most of them wait at, and when the first of their deadlines comes:
 * `2 items waiting for an answer at review (deadline in 59 min)`.
 */
import type { RunEvent } from '../runtime/events.ts';
import { fromNow } from './parked.ts';

interface Parked {
  readonly placement: string;
  /** Wall time. */
  readonly deadlineAt: number;
}

/** The events after which an item no longer waits for an answer. */
const UNPARKED = new Set<RunEvent['type']>([
  'await.answered',
  'await.expired',
  'placement.start',
  'item.end',
  'item.failed',
  'item.cancelled',
]);

/** The items of a run parked at awaits, followed from its events. */
export class AwaitWaits {
  private readonly parked = new Map<string, Parked>();

  /** Takes one event into account. */
  see(event: RunEvent): void {
    if (event.type === 'run.end') this.parked.clear();
    else if (event.type === 'await.parked') {
      this.parked.set(event.item, { placement: event.placement, deadlineAt: event.deadlineAt });
    } else if (UNPARKED.has(event.type) && 'item' in event) this.parked.delete(event.item);
  }

  /** How many items wait for an answer now. */
  get size(): number {
    return this.parked.size;
  }

  /**
   * The phrase for the placement most items wait at (the first parked at, on a tie), at wall time
   * `wallNow`; undefined when no item waits for an answer.
   */
  phrase(wallNow: number): string | undefined {
    const at = new Map<string, Parked[]>();
    for (const p of this.parked.values()) {
      const list = at.get(p.placement);
      if (list === undefined) at.set(p.placement, [p]);
      else list.push(p);
    }
    let top: [string, Parked[]] | undefined;
    for (const entry of at) if (top === undefined || entry[1].length > top[1].length) top = entry;
    if (top === undefined) return undefined;
    const [placement, items] = top;
    const first = Math.min(...items.map((p) => p.deadlineAt));
    const count = items.length === 1 ? '1 item' : `${items.length} items`;
    const others = this.parked.size - items.length;
    const more =
      others === 0
        ? ''
        : `, ${others} more at ${at.size === 2 ? '1 other await' : `${at.size - 1} other awaits`}`;
    return `${count} waiting for an answer at ${placement} (deadline ${fromNow(first - wallNow)})${more}`;
  }
}
