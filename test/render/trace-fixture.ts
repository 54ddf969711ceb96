import type { RunEvent } from '../../src/runtime/events.ts';

const DAG = 'urn:switchyard:dag:compose-validate';

/**
 * A compose-validate run as the dispatcher writes it: the validator rejects the draft twice (two retries
 * with back-off waits), the third wait would not fit the run deadline, so the exhaustion route salvages it.
 */
export function composeValidateTrace(): RunEvent[] {
  const base = { runId: 'run-1', item: '1', dag: DAG };
  let seq = 0;
  let time = 0;
  const events: RunEvent[] = [];
  const add = (event: Record<string, unknown>, advance = 0): void => {
    time += advance;
    events.push({ seq: seq++, time, ...event } as unknown as RunEvent);
  };
  add({ type: 'run.start', runId: 'run-1', dag: DAG, hash: 'a'.repeat(64), items: 1 });
  const waits = [100, 200];
  for (let visit = 1; visit <= 3; visit++) {
    add({ ...base, type: 'placement.start', placement: 'compose', visit });
    add({ ...base, type: 'placement.end', placement: 'compose', output: 'drafted', durationMs: 40 }, 40);
    add({ ...base, type: 'route', from: 'compose', output: 'drafted', to: 'validate', kind: 'next' });
    add({ ...base, type: 'placement.start', placement: 'validate', visit });
    add({ ...base, type: 'placement.end', placement: 'validate', output: 'invalid', durationMs: 10 }, 10);
    const wait = waits[visit - 1];
    if (wait !== undefined) {
      add({
        ...base,
        type: 'retry.scheduled',
        from: 'validate',
        to: 'compose',
        budget: 'compose',
        attempt: visit,
        delayMs: wait,
        delaySource: 'backoff',
      });
      add(
        { ...base, type: 'route', from: 'validate', output: 'invalid', to: 'compose', kind: 'retry' },
        wait,
      );
    } else {
      const reason = 'the 400 ms back-off does not fit the 150 ms left before the run deadline';
      add({
        ...base,
        type: 'budget.exhausted',
        from: 'validate',
        budget: 'compose',
        to: 'salvage',
        why: 'deadline',
        reason,
      });
      add({
        ...base,
        type: 'route',
        from: 'validate',
        output: 'invalid',
        to: 'salvage',
        kind: 'exhausted',
        reason,
      });
      add({ ...base, type: 'salvage', from: 'validate', to: 'salvage', reason });
    }
  }
  add({ ...base, type: 'placement.start', placement: 'salvage', visit: 1 });
  add({ ...base, type: 'placement.end', placement: 'salvage', output: 'salvaged', durationMs: 5 }, 5);
  add({ ...base, type: 'route', from: 'salvage', output: 'salvaged', to: 'salvaged', kind: 'next' });
  add({ ...base, type: 'item.end', terminal: 'salvaged', outcome: 'completed' });
  add({
    type: 'run.end',
    runId: 'run-1',
    dag: DAG,
    status: 'completed',
    completed: 1,
    failed: 0,
    durationMs: time,
  });
  return events;
}

/** The trace as JSONL, one event per line. */
export function toJsonl(events: readonly RunEvent[]): string {
  return `${events.map((e) => JSON.stringify(e)).join('\n')}\n`;
}
