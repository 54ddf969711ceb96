import { describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import { loadDag, scripted, virtualClock } from '../runtime/helpers.ts';
import { memoryTracing, spanTree } from './helpers.ts';

const IRI = 'urn:switchyard:node:';
const policy = {
  defaults: { backoff: { strategy: 'constant' as const, baseMs: 100, capMs: 100 }, jitter: 'none' as const },
};

function nodes() {
  return [
    scripted(`${IRI}compose`, ['drafted'], [() => 'drafted']),
    scripted(`${IRI}validate`, ['valid', 'invalid'], [() => 'invalid', () => 'invalid', () => 'valid']),
    scripted(`${IRI}salvage`, ['salvaged'], [() => 'salvaged']),
  ];
}

describe('the trace of a resumed durable run', () => {
  it('goes on in the same trace, under the first run span, with no span made twice', async () => {
    const { provider, exporter } = memoryTracing();
    const store = createMemoryStore();
    const dag = await loadDag('compose-validate');
    const abort = new AbortController();
    const stopAtSecondRetry = (event: RunEvent) => {
      if (event.type === 'retry.scheduled' && event.attempt === 2) queueMicrotask(() => abort.abort());
    };
    const first = await createDispatcher({
      nodes: nodes(),
      policy,
      store,
      clock: virtualClock(),
      tracerProvider: provider,
    }).run(dag, { topic: 'whales' }, { runId: 'r-resume', signal: abort.signal, onEvent: stopAtSecondRetry });
    expect(first.status).toBe('aborted');
    const before = exporter.getFinishedSpans().length;

    const resumed = await createDispatcher({
      nodes: nodes(),
      policy,
      store,
      // The resume comes a second after the stop, by the wall clock.
      clock: createVirtualClock({ auto: true, wallStart: 1_000 }),
      tracerProvider: provider,
    }).resume('r-resume');
    expect(resumed.status).toBe('completed');

    const spans = exporter.getFinishedSpans();
    expect(spans.length).toBeGreaterThan(before);
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    const runs = spans.filter((s) => s.name.startsWith('invoke_workflow'));
    expect(runs).toHaveLength(2);
    const [firstRun, resumeRun] = runs as [(typeof runs)[0], (typeof runs)[0]];
    expect(resumeRun.parentSpanContext?.spanId).toBe(firstRun.spanContext().spanId);
    expect(resumeRun.attributes['switchyard.run.resumed']).toBe(true);
    expect(firstRun.attributes['switchyard.run.status']).toBe('aborted');
    const executions = spans
      .filter((s) => s.attributes['switchyard.placement'] !== undefined && !s.name.startsWith('wait'))
      .map(
        (s) => `${String(s.attributes['switchyard.placement'])}#${String(s.attributes['switchyard.visit'])}`,
      );
    expect(executions).toEqual([...new Set(executions)]);
    expect(spanTree(spans)).toBe(
      [
        'invoke_workflow Compose and validate @0+100 [error.type=aborted run.status=aborted]',
        '  compose @0+0 [item=1 visit=1 output=drafted route.kind=next]',
        '  validate @0+0 [item=1 visit=1 output=invalid route.kind=retry]',
        '  wait backoff @0+100 [item=1 budget=compose budget.count=1 wait.delay_ms=100]',
        '  compose @100+0 [item=1 visit=2 budget=compose budget.count=1 output=drafted route.kind=next]',
        '  validate @100+0 [item=1 visit=2 output=invalid route.kind=retry]',
        '  wait backoff @100+0 [item=1 budget=compose budget.count=2 wait.delay_ms=100]',
        '  invoke_workflow Compose and validate @1000+0 [run.status=completed]',
        '    compose @1000+0 [item=1 visit=3 output=drafted route.kind=next]',
        '    validate @1000+0 [item=1 visit=3 output=valid route.kind=next]',
      ].join('\n'),
    );
  });
});
