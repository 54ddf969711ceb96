import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { dagsLibrary, loadDag, virtualClock } from '../runtime/helpers.ts';
import { memoryTracing, spanTree } from './helpers.ts';

const IRI = 'urn:switchyard:node:';

describe('the spans of scatters and embeds', () => {
  const manager = new AsyncLocalStorageContextManager();
  beforeAll(() => {
    context.setGlobalContextManager(manager.enable());
  });
  afterAll(() => {
    manager.disable();
    context.disable();
  });

  it('nests each scatter child under the scatter execution, and a node own span under its execution', async () => {
    const { provider, exporter } = memoryTracing();
    const search = defineNode({
      id: `${IRI}search`,
      outputs: ['found', 'failed'],
      run: async (item, ctx) => {
        const query = item.data.item as string;
        ctx.span?.setAttribute('gen_ai.request.model', 'm-1');
        await Promise.resolve();
        // What an HTTP client's instrumentation does: a span under the active one.
        trace.getTracer('http').startActiveSpan(`GET /search?q=${query}`, (span) => span.end());
        if (query === 'bad') throw new Error('cannot search bad');
        item.data.result = `hits for ${query}`;
        return 'found';
      },
    });
    const rank = defineNode({ id: `${IRI}rank`, outputs: ['ranked'], run: () => 'ranked' });
    trace.setGlobalTracerProvider(provider);
    try {
      const result = await createDispatcher({
        nodes: [search, rank],
        clock: virtualClock(),
        tracerProvider: provider,
      }).run(await loadDag('scatter-gather'), { queries: ['a', 'bad', 'b'] });
      expect(result.status).toBe('completed');
    } finally {
      trace.disable();
    }
    const spans = exporter.getFinishedSpans();
    expect(spanTree(spans)).toBe(
      [
        'invoke_workflow Scatter and gather @0+0 [run.status=completed]',
        '  search @0+0 [item=1 visit=1 output=done route.kind=next]',
        '    search @0+0 [item=1.0 visit=1 output=found]',
        '      GET /search?q=a',
        '    search @0+0 [item=1.1 visit=1 output=error error.type=E_NODE_ERROR]',
        '      GET /search?q=bad',
        '    search @0+0 [item=1.2 visit=1 output=found]',
        '      GET /search?q=b',
        '  merge @0+0 [item=1 visit=1 output=completed route.kind=next]',
        '  rank @0+0 [item=1 visit=1 output=ranked route.kind=next]',
      ].join('\n'),
    );
    const child = spans.find((s) => s.attributes['switchyard.item'] === '1.0');
    expect(child?.attributes['gen_ai.request.model']).toBe('m-1');
  });

  it('nests the embedded document executions under the embed execution', async () => {
    const { provider, exporter } = memoryTracing();
    let validations = 0;
    const nodes = [
      defineNode({ id: `${IRI}compose`, outputs: ['drafted'], run: () => 'drafted' }),
      defineNode({
        id: `${IRI}validate`,
        outputs: ['valid', 'invalid'],
        run: () => (++validations === 1 ? 'invalid' : 'valid'),
      }),
      defineNode({ id: `${IRI}salvage`, outputs: ['salvaged'], run: () => 'salvaged' }),
      defineNode({ id: `${IRI}review`, outputs: ['approved', 'stale'], run: () => 'approved' }),
      defineNode({ id: `${IRI}escalate`, outputs: ['queued'], run: () => 'queued' }),
    ];
    const policy = {
      defaults: {
        backoff: { strategy: 'constant' as const, baseMs: 10, capMs: 10 },
        jitter: 'none' as const,
      },
    };
    const result = await createDispatcher({
      nodes,
      library: await dagsLibrary(),
      clock: virtualClock(),
      policy,
      tracerProvider: provider,
    }).run(await loadDag('review'), { topic: 'whales' });
    expect(result.status).toBe('completed');
    const spans = exporter.getFinishedSpans();
    expect(spanTree(spans)).toBe(
      [
        'invoke_workflow Review before publishing @0+10 [run.status=completed]',
        '  draft @0+10 [item=1 visit=1 output=completed route.kind=next]',
        '    compose @0+0 [item=1/draft visit=1 output=drafted route.kind=next]',
        '    validate @0+0 [item=1/draft visit=1 output=invalid route.kind=retry]',
        '    wait backoff @0+10 [item=1/draft budget=compose budget.count=1 wait.delay_ms=10]',
        '    compose @10+0 [item=1/draft visit=2 budget=compose budget.count=1 output=drafted route.kind=next]',
        '    validate @10+0 [item=1/draft visit=2 output=valid route.kind=next]',
        '  review @10+0 [item=1 visit=1 output=approved route.kind=next]',
      ].join('\n'),
    );
    const inner = spans.find((s) => s.attributes['switchyard.item'] === '1/draft');
    expect(inner?.attributes['switchyard.dag.iri']).toBe('urn:switchyard:dag:compose-validate');
  });
});
