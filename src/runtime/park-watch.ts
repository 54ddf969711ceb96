import { nextTurn } from '../policy/clock.ts';

/**
 * Tells when nothing in a run can move on without an answer: every item still in flight is parked at an
 * await placement, or is a parent (a scatter's, an embed's) waiting on its children. The run counts items
 * in flight and blocked parents as they change; when the counts say so, the watch looks again on the event
 * loop's next turn (a parent whose last child just ended is only unblocked a few promise reactions later)
 * and then calls `stop`. A run that stops there has its parked items recorded and ends `waiting`.
 */
export class ParkWatch {
  /** Items in flight (started and not ended), at every depth. */
  live = 0;
  /** Items waiting on children of their own. */
  blocked = 0;
  private looking = false;
  private stopped = false;

  constructor(
    private readonly parkedCount: () => number,
    private readonly stop: () => void,
  ) {}

  /** Whether everything in flight waits for an answer now. */
  private idle(): boolean {
    const parked = this.parkedCount();
    return parked > 0 && this.live - this.blocked <= parked;
  }

  /** Called whenever an item parks, ends or starts waiting on its children. */
  check(): void {
    if (this.looking || this.stopped || !this.idle()) return;
    this.looking = true;
    nextTurn().then(() => {
      this.looking = false;
      if (this.stopped || !this.idle()) return;
      this.stopped = true;
      this.stop();
    });
  }
}
