/**
 * One run, one trace across the submitter and two workers, each with a tracer provider of its own as
 * separate processes would have. Real Redis; every key is removed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createDistributedDispatcher } from '../../src/distributed/dispatcher.ts';
import { startWorker } from '../../src/distributed/worker.ts';
import { dag } from '../../src/document/builder.ts';
import { defineNode, type NodeDefinition } from '../../src/runtime/node.ts';
import { removeScratchKeys, scratchPrefix, TEST_REDIS } from '../store/redis-scratch.ts';
import { memoryTracing } from './helpers.ts';

afterAll(removeScratchKeys);

const loop = dag('urn:test:otel-loop', { name: 'otel loop', version: '1' })
  .budget('compose', 2)
  .entry('compose')
  .task('compose', 'urn:test:compose')
  .route('drafted', 'validate')
  .task('validate', 'urn:test:validate')
  .route('valid', 'done')
  .retry('invalid', 'compose', { budget: 'compose', exhausted: 'done' })
  .terminal('done', 'completed')
  .build();

const nodes = [
  defineNode({
    id: 'urn:test:compose',
    outputs: ['drafted'],
    run: (item, ctx) => {
      ctx.span?.setAttribute('test.worker.saw', true);
      item.data.n = ctx.visit;
      return 'drafted';
    },
  }),
  defineNode({
    id: 'urn:test:validate',
    outputs: ['valid', 'invalid'],
    run: (item) => (item.data.n === 2 ? 'valid' : 'invalid'),
  }),
] as unknown as NodeDefinition<string, never>[];

describe('a distributed run', () => {
  it('is one trace: the workers spans are children of the run span the submitter made', {
    timeout: 30_000,
  }, async () => {
    const prefix = scratchPrefix();
    const submitter = memoryTracing();
    const one = memoryTracing();
    const two = memoryTracing();
    const policy = { defaults: { backoff: { strategy: 'constant' as const, baseMs: 5, capMs: 5 } } };
    const workers = [
      await startWorker({ connection: TEST_REDIS, nodes, prefix, tracerProvider: one.provider }),
      await startWorker({ connection: TEST_REDIS, nodes, prefix, tracerProvider: two.provider }),
    ];
    const dispatcher = await createDistributedDispatcher({
      connection: TEST_REDIS,
      nodes,
      policy,
      prefix,
      tracerProvider: submitter.provider,
    });
    try {
      const items = Array.from({ length: 4 }, (_, i) => ({ i }));
      const result = await dispatcher.run(loop, {}, { items });
      expect(result.status).toBe('completed');

      const runs = submitter.exporter.getFinishedSpans();
      expect(runs.map((s) => s.name)).toEqual(['invoke_workflow otel loop']);
      const run = runs[0];
      expect(run?.attributes['switchyard.run.status']).toBe('completed');
      const placements = [...one.exporter.getFinishedSpans(), ...two.exporter.getFinishedSpans()];
      const waits = placements.filter((s) => s.name === 'wait backoff');
      // 4 items × (compose, validate, compose, validate), and the back-off between.
      expect(waits).toHaveLength(4);
      placements.splice(0, placements.length, ...placements.filter((s) => !waits.includes(s)));
      expect(placements).toHaveLength(16);
      for (const span of placements) {
        expect(span.spanContext().traceId).toBe(run?.spanContext().traceId);
        expect(span.parentSpanContext?.spanId).toBe(run?.spanContext().spanId);
      }
      const seen = placements.map(
        (s) =>
          `${String(s.attributes['switchyard.item'])}:${s.name}#${String(s.attributes['switchyard.visit'])}`,
      );
      expect(new Set(seen).size).toBe(16);
      const retried = placements.filter(
        (s) => s.name === 'compose' && s.attributes['switchyard.visit'] === 2,
      );
      expect(retried.every((s) => s.attributes['test.worker.saw'] === true)).toBe(true);
    } finally {
      await dispatcher.close();
      for (const worker of workers) await worker.close();
    }
  });
});
