import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { httpError, loadDag, scripted, virtualClock } from '../runtime/helpers.ts';
import { eventNames, memoryTracing, spanTree } from './helpers.ts';

const IRI = 'urn:switchyard:node:';
const policy = {
  defaults: {
    backoff: { strategy: 'constant' as const, baseMs: 100, capMs: 1_000 },
    jitter: 'none' as const,
  },
  placements: { compose: { deadlineMs: 5_000 } },
};

describe('the spans of the compose → validate loop', () => {
  it('shows each attempt with its budget, each wait, the exhausted route and the salvage', async () => {
    const { provider, exporter } = memoryTracing();
    const compose = scripted(
      `${IRI}compose`,
      ['drafted'],
      [
        () => {
          throw httpError(429, { 'retry-after': '2' });
        },
        (item) => {
          item.data.draft = 'draft';
          return 'drafted';
        },
      ],
    );
    const validate = scripted(`${IRI}validate`, ['valid', 'invalid'], [() => 'invalid']);
    const salvage = scripted(`${IRI}salvage`, ['salvaged'], [() => 'salvaged']);
    const dispatcher = createDispatcher({
      nodes: [compose, validate, salvage],
      policy,
      clock: virtualClock(),
      tracerProvider: provider,
    });
    const result = await dispatcher.run(
      await loadDag('compose-validate'),
      { topic: 'whales' },
      { runId: 'r-w1' },
    );
    expect(result.items[0]?.terminal).toBe('salvaged');
    const spans = exporter.getFinishedSpans();
    expect(spanTree(spans)).toBe(
      [
        'invoke_workflow Compose and validate @0+2300 [run.status=completed]',
        '  compose @0+0 [item=1 visit=1 output=retry route.kind=retry error.type=E_NODE_ERROR]',
        '  wait retry-after @0+2000 [item=1 budget=transient budget.count=1 wait.delay_ms=2000]',
        '  compose @2000+0 [item=1 visit=2 budget=transient budget.count=1 output=drafted route.kind=next]',
        '  validate @2000+0 [item=1 visit=1 output=invalid route.kind=retry]',
        '  wait backoff @2000+100 [item=1 budget=compose budget.count=1 wait.delay_ms=100]',
        '  compose @2100+0 [item=1 visit=3 budget=compose budget.count=1 output=drafted route.kind=next]',
        '  validate @2100+0 [item=1 visit=2 output=invalid route.kind=retry]',
        '  wait backoff @2100+100 [item=1 budget=compose budget.count=2 wait.delay_ms=100]',
        '  compose @2200+0 [item=1 visit=4 budget=compose budget.count=2 output=drafted route.kind=next]',
        '  validate @2200+0 [item=1 visit=3 output=invalid route.kind=retry]',
        '  wait backoff @2200+100 [item=1 budget=compose budget.count=3 wait.delay_ms=100]',
        '  compose @2300+0 [item=1 visit=5 budget=compose budget.count=3 output=drafted route.kind=next]',
        '  validate @2300+0 [item=1 visit=4 output=invalid route.kind=exhausted budget.exhausted=compose]',
        '  salvage @2300+0 [item=1 visit=1 output=salvaged route.kind=next]',
      ].join('\n'),
    );
    const run = spans.find((s) => s.name.startsWith('invoke_workflow'));
    expect(run?.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_workflow',
      'switchyard.run.id': 'r-w1',
      'switchyard.dag.iri': 'urn:switchyard:dag:compose-validate',
      'switchyard.dag.hash': result.hash,
      'switchyard.run.items': 1,
    });
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    const first = spans.find((s) => s.name === 'compose' && s.attributes['switchyard.visit'] === 1);
    expect(first?.status.code).toBe(2);
    expect(first?.attributes).toMatchObject({
      'switchyard.deadline_ms': 5_000,
      'switchyard.error.retryable': true,
      'http.response.status_code': 429,
    });
    expect(eventNames(first)).toEqual(['exception', 'route', 'retry.scheduled']);
    const retryAfter = spans.find((s) => s.name === 'wait retry-after');
    expect(retryAfter?.attributes['switchyard.wait.delay_source']).toBe('retry-after');
    const last = spans.filter((s) => s.name === 'validate').at(-1);
    expect(eventNames(last)).toEqual(['budget.exhausted', 'route', 'salvage']);
  });
});
