import { SwitchyardError } from '../../src/errors.ts';
import type { RunEvent } from '../../src/runtime/events.ts';

/** Draws the ask DAG with the path of this run to `path` (SVG or PNG, by its extension). */
export async function renderRun(path: string, events: readonly RunEvent[]): Promise<void> {
  void events;
  throw new SwitchyardError('E_RENDER', `cannot render ${path}: the renderer is not available in this build`);
}
