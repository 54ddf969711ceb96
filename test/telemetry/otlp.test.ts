import { context, trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { otlpTracing } from '../../src/telemetry/otlp.ts';
import { loadDag, scripted, virtualClock } from '../runtime/helpers.ts';
import { otlpSpans, receiver } from './receiver.ts';

const IRI = 'urn:switchyard:node:';

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  trace.disable();
  context.disable();
});

describe('exporting over OTLP/HTTP', () => {
  it('sends the run spans, under the service OTEL_SERVICE_NAME names, to OTEL_EXPORTER_OTLP_ENDPOINT', async () => {
    const server = await receiver();
    try {
      process.env.OTEL_EXPORTER_OTLP_ENDPOINT = server.url;
      process.env.OTEL_SERVICE_NAME = 'otlp-test';
      process.env.OTEL_RESOURCE_ATTRIBUTES = 'deployment.environment.name=test';
      const otlp = await otlpTracing();
      const nodes = [
        scripted(`${IRI}compose`, ['drafted'], [() => 'drafted']),
        scripted(`${IRI}validate`, ['valid', 'invalid'], [() => 'valid']),
        scripted(`${IRI}salvage`, ['salvaged'], [() => 'salvaged']),
      ];
      const result = await createDispatcher({
        nodes,
        clock: virtualClock(),
        tracerProvider: otlp.provider,
      }).run(await loadDag('compose-validate'), { topic: 'whales' }, { runId: 'r-otlp' });
      expect(result.status).toBe('completed');
      expect(await otlp.shutdown()).toEqual({});

      expect(server.received.length).toBeGreaterThan(0);
      expect(server.received[0]).toMatchObject({ path: '/v1/traces', type: 'application/json' });
      const { resource, spans } = otlpSpans(server.received);
      expect(resource).toMatchObject({
        'service.name': 'otlp-test',
        'deployment.environment.name': 'test',
      });
      expect(spans.map((s) => s.name).sort()).toEqual([
        'compose',
        'invoke_workflow Compose and validate',
        'validate',
      ]);
      expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
      const run = spans.find((s) => s.name.startsWith('invoke_workflow'));
      expect(run?.attributes).toContainEqual({ key: 'switchyard.run.id', value: { stringValue: 'r-otlp' } });
    } finally {
      await server.close();
    }
  });
});
