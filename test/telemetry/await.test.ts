import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { draft, reviewDag, reviewPolicy } from '../awaits/fixtures.ts';
import { virtualClock } from '../runtime/helpers.ts';
import { memoryTracing, spanTree } from './helpers.ts';

describe('the spans of an await', () => {
  it('covers the park with a span that ends on the answer, or on the deadline', async () => {
    const { provider, exporter } = memoryTracing();
    const dispatcher = createDispatcher({
      nodes: [draft],
      policy: reviewPolicy(60_000),
      clock: virtualClock(),
      tracerProvider: provider,
    });
    const answerWhenParked = (event: RunEvent) => {
      if (event.type !== 'await.parked') return;
      const { runId, token } = event;
      queueMicrotask(() => void dispatcher.answer({ runId, token, output: 'approved', data: { ok: true } }));
    };
    const answered = await dispatcher.run(reviewDag(), { n: 1 }, { onEvent: answerWhenParked });
    expect(answered.items[0]?.terminal).toBe('publish');
    const expired = await dispatcher.run(reviewDag(), { n: 2 });
    expect(expired.items[0]?.terminal).toBe('escalate');

    const spans = exporter.getFinishedSpans();
    const traceOf = (runId: string) =>
      spans.find((s) => s.attributes['switchyard.run.id'] === runId)?.spanContext().traceId;
    const treeOf = (runId: string) =>
      spanTree(spans.filter((s) => s.spanContext().traceId === traceOf(runId)));
    expect(treeOf(answered.runId)).toBe(
      [
        'invoke_workflow review @0+0 [run.status=completed]',
        '  draft @0+0 [item=1 visit=1 output=done route.kind=next]',
        '  review @0+0 [item=1 visit=1 output=approved route.kind=next]',
        '    await review @0+0 [item=1 visit=1 output=approved]',
      ].join('\n'),
    );
    expect(treeOf(expired.runId)).toBe(
      [
        'invoke_workflow review @0+60000 [error.type=failed run.status=failed]',
        '  draft @0+0 [item=1 visit=1 output=done route.kind=next]',
        '  review @0+60000 [item=1 visit=1 output=deadline route.kind=next]',
        '    await review @0+60000 [item=1 visit=1 output=deadline]',
      ].join('\n'),
    );
    const parked = spans.find(
      (s) => s.name === 'await review' && s.attributes['switchyard.output'] === 'deadline',
    );
    expect(parked?.attributes).toMatchObject({
      'switchyard.wait.kind': 'await',
      'switchyard.await.answers': ['approved', 'rejected'],
      'switchyard.wait.waited_ms': 60_000,
    });
    expect(parked?.attributes['switchyard.await.token']).toMatch(/^aw-/u);
  });
});
