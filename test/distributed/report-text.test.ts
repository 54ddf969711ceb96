import { describe, expect, it } from 'vitest';
import { eventText, runIdTail } from '../../src/distributed/report.ts';
import { EventStream } from '../../src/runtime/event-stream.ts';
import type { RunEvent } from '../../src/runtime/events.ts';

/** The events a stream of run `runId` stamps from `bodies`, as eventText writes them. */
function texts(runId: string, bodies: object[]): string[] {
  const stream = new EventStream(runId, () => 12.5);
  const out: string[] = [];
  const tail = runIdTail(runId);
  stream.listen((event) => {
    out.push(eventText(event, tail));
  });
  for (const body of bodies) stream.emit(body as never);
  return out;
}

describe('an event as a report carries it', () => {
  it('is its body without seq, time and runId, however the body is written', () => {
    const bodies = [
      { type: 'route', item: '1', from: 'a', output: 'ok', to: 'b', kind: 'next' },
      { type: 'placement.end', item: '1', note: ',"seq":1,"time":2', durationMs: 0.1 },
      // A body that holds a stamp key of its own keeps its place in the text: it is written again without it.
      { type: 'odd', time: 3, item: '"runId"' },
    ];
    const runId = 'run "1"';
    const written = texts(
      runId,
      bodies.map((b) => ({ ...b })),
    );
    expect(written.map((t) => JSON.parse(t) as RunEvent)).toEqual([
      bodies[0],
      bodies[1],
      { type: 'odd', item: '"runId"' },
    ]);
    expect(written[0]).toBe(JSON.stringify(bodies[0]));
  });
});
