import type { AwaitPlacement } from '../document/model.ts';
import { SwitchyardError } from '../errors.ts';
import type { Clock } from '../policy/types.ts';
import { unwatchAbort, watchAbort } from '../runtime/abort-watch.ts';
import { checkAnswer, type GivenAnswer } from './answer-check.ts';

/** An item parked at an await placement, as a run's result and its viewers list it. */
export interface ParkedItem {
  readonly token: string;
  readonly item: string;
  /** IRI of the document the await placement is in. */
  readonly dag: string;
  readonly placement: string;
  readonly visit: number;
  /** The outputs an answer may name. */
  readonly answers: readonly string[];
  /** Wall time (ms since the epoch) the item takes its `deadline` output without an answer. */
  readonly deadlineAt: number;
  /** Wall time it parked. */
  readonly parkedAt: number;
}

/** How a parked item's wait ended: with an answer (given before it parked, when `early`), or its deadline. */
export type ParkEnd =
  | { readonly kind: 'answer'; readonly answer: GivenAnswer; readonly early: boolean }
  | { readonly kind: 'deadline' };

interface Waiting {
  readonly parked: ParkedItem;
  readonly placement: AwaitPlacement;
  readonly resolve: (end: ParkEnd) => void;
  readonly reject: (reason: unknown) => void;
  readonly timer: AbortController;
  readonly signal: AbortSignal;
  readonly onAbort: () => void;
}

/**
 * A run's answers and the items parked for them, in this process. An answer for a parked item wakes it; one
 * for an item that has not parked yet is kept and taken when it parks; a second answer for a token is
 * refused (`E_ALREADY_ANSWERED`) and changes nothing. The deadline of each parked item is a sleep on the
 * run's clock, and every wait ends at once when the run's signal aborts. `onPark` is told whenever the
 * number of parked items grows, so that a run can stop once nothing else is left to move.
 */
export class AnswerDesk {
  private readonly early = new Map<string, GivenAnswer>();
  private readonly waiting = new Map<string, Waiting>();
  private readonly answered = new Set<string>();
  onPark: (() => void) | undefined;

  constructor(private readonly clock: Clock) {}

  /** How many items are parked now. */
  get parkedCount(): number {
    return this.waiting.size;
  }

  /** The items parked now, in the order they parked. */
  parked(): ParkedItem[] {
    return [...this.waiting.values()].map((w) => w.parked);
  }

  /** The placement a parked item waits at, or undefined when `token` names no parked item. */
  placementOf(token: string): AwaitPlacement | undefined {
    return this.waiting.get(token)?.placement;
  }

  /** Whether `token` has had its answer in this process. */
  hasAnswer(token: string): boolean {
    return this.answered.has(token) || this.early.has(token);
  }

  /**
   * Takes an answer: checked against the placement when its item is parked (else as it is, to be checked
   * when it parks), then given to the parked item or kept. Throws `E_ALREADY_ANSWERED` or `E_ANSWER`
   * without changing anything. Answers whether a parked item took it now.
   */
  give(token: string, answer: GivenAnswer): 'taken' | 'kept' {
    if (this.hasAnswer(token)) {
      throw new SwitchyardError(
        'E_ALREADY_ANSWERED',
        `token ${token} was already answered; an await takes one answer, the first`,
      );
    }
    const parked = this.waiting.get(token);
    if (parked === undefined) {
      this.early.set(token, answer);
      return 'kept';
    }
    const checked = checkAnswer(parked.placement, answer);
    this.answered.add(token);
    this.settle(token, parked);
    parked.resolve({ kind: 'answer', answer: checked, early: false });
    return 'taken';
  }

  /**
   * Parks an item until its answer (one kept already is taken at once) or its deadline, on the run's clock.
   * An answer kept earlier that does not fit this placement is dropped and reported through `misfit`, and
   * the item waits on. Rejects with the signal's reason when `signal` aborts.
   */
  park(
    parked: ParkedItem,
    placement: AwaitPlacement,
    signal: AbortSignal,
    misfit: (error: unknown) => void,
  ): Promise<ParkEnd> {
    const kept = this.early.get(parked.token);
    if (kept !== undefined) {
      this.early.delete(parked.token);
      try {
        const answer = checkAnswer(placement, kept);
        this.answered.add(parked.token);
        return Promise.resolve({ kind: 'answer', answer, early: true });
      } catch (error) {
        misfit(error);
      }
    }
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise<ParkEnd>((resolve, reject) => {
      const timer = new AbortController();
      const onAbort = () => {
        const waiting = this.waiting.get(parked.token);
        if (waiting === undefined) return;
        this.settle(parked.token, waiting);
        reject(signal.reason);
      };
      const waiting: Waiting = { parked, placement, resolve, reject, timer, signal, onAbort };
      this.waiting.set(parked.token, waiting);
      watchAbort(signal, onAbort);
      const left = Math.max(0, parked.deadlineAt - this.clock.wallNow());
      this.clock.sleep(left, timer.signal).then(
        () => {
          if (this.waiting.get(parked.token) !== waiting) return;
          this.settle(parked.token, waiting);
          resolve({ kind: 'deadline' });
        },
        () => undefined,
      );
      this.onPark?.();
    });
  }

  /** Forgets a parked item whose wait ends now: its deadline sleep and its abort watch. */
  private settle(token: string, waiting: Waiting): void {
    this.waiting.delete(token);
    unwatchAbort(waiting.signal, waiting.onAbort);
    waiting.timer.abort();
  }
}
