/**
 * The ways the gates benchmark runs its workload: in one process, durable (an SQLite store file), and on
 * worker processes over Redis (distributed.ts). Each mode is opened once, runs the workload under each
 * policy, and is closed, leaving no file or Redis key behind.
 */
import type { PolicyInput } from '../../src/policy/types.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import type { RunResult } from '../../src/runtime/run.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import { scratchFolder } from '../durable-common.ts';
import { callNode, gatesDag } from './workload.ts';

/** The modes, in the order they run and print. */
export const MODES = ['in-process', 'durable', 'distributed'] as const;
export type ModeName = (typeof MODES)[number];

/** How each mode is named in the table. */
export const MODE_LABELS: Readonly<Record<ModeName, string>> = {
  'in-process': 'one process',
  durable: 'durable (SQLite)',
  distributed: '2 workers (Redis)',
};

/** A mode, opened: it runs the workload's items under a policy until it is closed. */
export interface OpenMode {
  /**
   * Runs every item of `items` through the workload's DAG under `policy`, passing each event to `onEvent`;
   * ends (aborting the run) when `signal` aborts.
   */
  run(
    policy: PolicyInput,
    items: readonly Record<string, unknown>[],
    onEvent: (event: RunEvent) => void,
    signal: AbortSignal,
  ): Promise<RunResult>;
  /** Removes what the mode made (files, processes, Redis keys). */
  close(): Promise<void>;
}

/** The workload in this process, nothing recorded. */
export function inProcess(url: string): OpenMode {
  return {
    run: (policy, items, onEvent, signal) =>
      createDispatcher({ nodes: [callNode], services: { url }, policy }).run(
        gatesDag,
        {},
        { items, onEvent, signal },
      ).result,
    close: async () => undefined,
  };
}

/** The workload in this process, every run recorded in an SQLite file of a temporary folder. */
export async function durable(url: string): Promise<OpenMode> {
  const folder = scratchFolder('switchyard-gates-bench-');
  try {
    const store = await openSqliteStore(folder.file('runs.db'));
    return {
      run: (policy, items, onEvent, signal) =>
        createDispatcher({ nodes: [callNode], services: { url }, policy, store }).run(
          gatesDag,
          {},
          { items, onEvent, signal },
        ).result,
      async close() {
        await store.close();
        folder.remove();
      },
    };
  } catch (error) {
    folder.remove();
    throw error;
  }
}
