/**
 * The progress line of `run` and `resume` on a terminal: a spinner with the input items ended so far,
 * counted from the events, on stderr. Nothing at all when stderr is not a terminal.
 */
import yoctoSpinner, { type Spinner } from 'yocto-spinner';
import type { RunEvent } from '../runtime/events.ts';

/** The progress of one run; `onEvent` counts, `stop` clears the line before the summary is printed. */
export interface RunProgress {
  readonly onEvent: (event: RunEvent) => void;
  readonly stop: () => void;
}

// Scatter children are `<parent>.<index>` and embedded runs `<parent>/<key>`: only input items count.
function isInputItem(id: string): boolean {
  return !/[./]/u.test(id);
}

/**
 * A spinner naming run `runId` (when it is recorded, so that it can be resumed even if the process is
 * killed) and counting ended input items out of `total` (`alreadyEnded` of them before this process, on a
 * resume), or a no-op when `stream` is not a terminal.
 * @example
 * const progress = runProgress(3, { runId });
 * dispatcher.run(dag, {}, { items, runId, onEvent: progress.onEvent });
 */
export function runProgress(
  total: number,
  options: { readonly runId?: string | undefined; readonly alreadyEnded?: number } = {},
  stream: NodeJS.WriteStream = process.stderr,
): RunProgress {
  if (stream.isTTY !== true) return { onEvent: () => {}, stop: () => {} };
  let ended = options.alreadyEnded ?? 0;
  let retries = 0;
  const name = options.runId === undefined ? 'running' : `run ${options.runId}`;
  const text = () =>
    `${name}: ${ended}/${total} items ended${retries > 0 ? `, ${retries} ${retries === 1 ? 'retry' : 'retries'}` : ''}`;
  // The command handles SIGINT itself (it aborts the run so that it stays resumable).
  const spinner: Spinner = yoctoSpinner({ text: text(), stream, handleSignals: false }).start();
  return {
    onEvent: (event) => {
      if ((event.type === 'item.end' || event.type === 'item.failed') && isInputItem(event.item)) ended += 1;
      else if (event.type === 'retry.scheduled') retries += 1;
      else return;
      spinner.text = text();
    },
    stop: () => {
      spinner.clear();
      spinner.stop();
    },
  };
}
