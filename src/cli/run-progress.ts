/**
 * The progress of `run` and `resume` on stderr. On a terminal: a spinner line with the input items ended,
 * the retries, the items waiting at a gate (how many, at which key, why, and the countdown of its closing),
 * the items waiting for an answer at an await (how many, where, when the first deadline comes), and the
 * item that waits out a back-off or a Retry-After, which placement it waits for, why, and a
 * countdown. Off a terminal, nothing, unless `--progress` asks for plain lines: one when a wait of a second
 * or more starts, one when items wait at another gate key or for another reason (its closing, its pace, its
 * concurrency), one every ten seconds while a wait counts down, one when the ended count changes.
 * `--no-progress` shows nothing anywhere. Countdowns read the run's clock (so with `--virtual-time` they
 * count virtual time) and tick through its `sleep`, never a timer of their own.
 */
import yoctoSpinner, { type Spinner } from 'yocto-spinner';
import type { Clock } from '../policy/types.ts';
import type { RunEvent } from '../runtime/events.ts';
import type { CliIO } from './io.ts';
import { progressState, type Wait } from './progress-state.ts';

/** The progress of one run; `onEvent` counts, `stop` clears the line before the summary is printed. */
export interface RunProgress {
  readonly onEvent: (event: RunEvent) => void;
  readonly stop: () => void;
}

/** What {@link runProgress} shows and how. */
export interface RunProgressOptions {
  /** The input items of the run. */
  readonly total: number;
  /** The run, when it is recorded (so that it can be resumed even if the process is killed). */
  readonly runId?: string | undefined;
  /** Input items that ended before this process (a resume). */
  readonly alreadyEnded?: number;
  /** The waits a resume goes on with, in the run's clock time. */
  readonly waiting?: readonly Wait[];
  /** The run's clock: countdowns read it and tick through its sleep. */
  readonly clock: Clock;
  /** `--progress` (true), `--no-progress` (false), or neither: a spinner on a terminal only. */
  readonly flag?: boolean | undefined;
}

/** How the progress is shown. */
export type ProgressMode = 'terminal' | 'plain' | 'off';

/** The clock time between two refreshes of the terminal line, and between two plain lines during a wait. */
const TERMINAL_TICK_MS = 1000;
const PLAIN_TICK_MS = 10_000;
/** Waits shorter than this get no plain line of their own: they are counted in the retries. */
const PLAIN_WAIT_MS = 1000;

/** The mode `flag` asks for, given the stream the progress would draw on. */
export function progressMode(flag: boolean | undefined, stream: { readonly isTTY?: boolean }): ProgressMode {
  if (flag === false) return 'off';
  if (stream.isTTY === true) return 'terminal';
  return flag === true ? 'plain' : 'off';
}

const OFF: RunProgress = Object.freeze({ onEvent: () => {}, stop: () => {} });

/**
 * The progress of a run, shown on `io.progress` (default stderr) as {@link progressMode} decides.
 * @example
 * const progress = runProgress({ total: 3, runId, clock }, io);
 * dispatcher.run(dag, {}, { items, runId, onEvent: progress.onEvent });
 */
export function runProgress(options: RunProgressOptions, io: Pick<CliIO, 'err' | 'progress'>): RunProgress {
  const stream = io.progress ?? process.stderr;
  const mode = progressMode(options.flag, stream);
  if (mode === 'off') return OFF;
  const { clock } = options;
  const name = options.runId === undefined ? 'running' : `run ${options.runId}`;
  const state = progressState(name, options.total, options.alreadyEnded ?? 0, options.waiting ?? []);
  // The command handles SIGINT itself (it aborts the run so that it stays resumable).
  const spinner: Spinner | undefined =
    mode === 'terminal'
      ? yoctoSpinner({
          text: state.line(clock.now()),
          stream: stream as NodeJS.WriteStream,
          handleSignals: false,
        }).start()
      : undefined;
  let printedAt = Number.NEGATIVE_INFINITY;
  // Every plain line says the count of ended items: a new line is due when it moves.
  let printedEnded: number | undefined;
  // And the gate key most items wait at, and why: a new line is due when it changes.
  let printedGates: string | undefined;
  const refresh = () => {
    const now = clock.now();
    const line = state.line(now);
    if (spinner !== undefined) {
      // Setting the text draws the line: only a change is drawn.
      if (spinner.text !== line) spinner.text = line;
    } else {
      printedAt = now;
      printedEnded = state.ended();
      printedGates = state.headline();
      io.err(`switchyard: ${line}`);
    }
  };

  // While an item waits, the line is refreshed on the run's clock. A tick never sleeps past the end of the
  // first wait, and is called off once no item waits, so on a virtual clock it never moves time further
  // than the run's own waits do.
  let ticker: AbortController | undefined;
  const tick = async (own: AbortController) => {
    try {
      while (state.endings(clock.now()).length > 0) {
        const now = clock.now();
        const firstEnd = Math.min(...state.endings(now));
        // Plain lines come ten seconds after the last one; the terminal line is redrawn every second.
        const due = spinner === undefined ? Math.max(printedAt + PLAIN_TICK_MS, now) : now + TERMINAL_TICK_MS;
        if (due <= now && firstEnd > now) {
          // A resume's first line, drawn at once rather than after a tick that would move a virtual clock.
          refresh();
          continue;
        }
        const next = firstEnd > now ? Math.min(due, firstEnd) : due;
        await clock.sleep(Math.max(next - now, 1), own.signal);
        if (state.endings(clock.now()).length === 0) break;
        // At the end of a wait the item's next event redraws the line; a `0 s` is never shown.
        if (firstEnd <= clock.now()) continue;
        if (spinner !== undefined || clock.now() - printedAt >= PLAIN_TICK_MS) refresh();
      }
    } catch {
      // Called off: the wait or the run ended.
    } finally {
      if (ticker === own) ticker = undefined;
    }
  };
  const watchWaits = () => {
    const waiting = state.endings(clock.now()).length > 0;
    if (waiting && ticker === undefined) {
      ticker = new AbortController();
      void tick(ticker);
    } else if (!waiting && ticker !== undefined) {
      ticker.abort();
      ticker = undefined;
    }
  };

  watchWaits();
  return {
    onEvent: (event) => {
      state.onEvent(event, clock.now(), clock.wallNow());
      watchWaits();
      if (spinner !== undefined) {
        refresh();
        return;
      }
      // Plain lines: a wait worth reading about starts, items wait at another gate key or for another reason,
      // the number of items waiting for an answer moves, or the count of ended items moves (or is first known).
      const waitStarts = event.type === 'retry.scheduled' && event.delayMs >= PLAIN_WAIT_MS;
      const gates = state.headline();
      const gatesMoved = gates !== undefined && gates !== printedGates;
      if (waitStarts || gatesMoved || state.ended() !== printedEnded) refresh();
    },
    stop: () => {
      ticker?.abort();
      ticker = undefined;
      spinner?.clear();
      spinner?.stop();
    },
  };
}
