/**
 * Handing a job back: a worker that meets a job it cannot carry (a placement whose node it does not
 * register, a job written by a newer version) leaves it on the queue, delayed, for another worker, and
 * says so once per node or format rather than once per job.
 */
import { steadyDelay } from '../policy/backoff.ts';

/** How a worker hands back jobs it cannot carry. */
export interface HandBackOptions {
  /** Delay before the first hand-back becomes due again; default 100 ms. Doubles each time. */
  readonly delayMs: number;
  /** The longest delay between two hand-backs; default 2000 ms. */
  readonly capMs: number;
  /**
   * How long an item may be handed back because no worker that took it registers its node before it fails
   * with `E_NODE_NOT_REGISTERED` (the run hears of it as of any failed item); default 60000 ms.
   */
  readonly giveUpAfterMs: number;
}

/** The defaults of {@link HandBackOptions}. */
export const defaultHandBack: HandBackOptions = Object.freeze({
  delayMs: 100,
  capMs: 2000,
  giveUpAfterMs: 60_000,
});

/** How often and since when (wall time) an item has been handed back at its placement. */
export interface HandedBack {
  readonly since: number;
  readonly times: number;
}

/** The delay before hand-back number `times` (from 1) is due again: `delayMs` doubled each time, up to `capMs`. */
export function handBackDelay(options: HandBackOptions, times: number): number {
  const { delayMs: baseMs, capMs } = options;
  return steadyDelay(times, { strategy: 'exponential', baseMs, factor: 2, capMs });
}

/** Says a thing once per subject: the first call for a subject logs its line, later ones nothing. */
export class OnceLog {
  private readonly said = new Set<string>();

  constructor(private readonly log: (line: string) => void) {}

  /** Logs `line` if nothing was said about `subject` yet. */
  say(subject: string, line: () => string): void {
    if (this.said.has(subject)) return;
    this.said.add(subject);
    this.log(line());
  }
}

/** How a worker meets the jobs it cannot carry. */
export interface ProcessorFaults {
  readonly log: OnceLog;
  readonly handBack: HandBackOptions;
}

/**
 * Meets a job that needs node `node`, which this worker lacks, at `where` (`placement 'x'`, `phase 'x'`) of
 * DAG `dag`: says so once per node, and answers the job's next hand-back and its delay, or undefined once
 * the job has been handed back for the give-up time (`previous` counts the hand-backs so far; `now` is wall
 * time).
 */
export function nextHandBack(
  faults: ProcessorFaults,
  node: string,
  where: string,
  dag: string,
  now: number,
  previous: HandedBack | undefined,
): { readonly handedBack: HandedBack; readonly delayMs: number } | undefined {
  faults.log.say(
    `node ${node}`,
    () =>
      `switchyard worker: this worker does not register node '${node}' (${where} of DAG '${dag}'); it leaves such jobs for workers that do. Add the node to this worker's --nodes module, or start a worker that registers it`,
  );
  const since = previous?.since ?? now;
  if (now - since >= faults.handBack.giveUpAfterMs) return undefined;
  const handedBack: HandedBack = { since, times: (previous?.times ?? 0) + 1 };
  return { handedBack, delayMs: handBackDelay(faults.handBack, handedBack.times) };
}
