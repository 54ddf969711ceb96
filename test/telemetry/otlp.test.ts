import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { otlpTracing } from '../../src/telemetry/otlp.ts';
import { loadDag, scripted, virtualClock } from '../runtime/helpers.ts';

const IRI = 'urn:switchyard:node:';

interface OtlpAttribute {
  readonly key: string;
  readonly value: { readonly stringValue?: string; readonly intValue?: string | number };
}
interface OtlpSpan {
  readonly name: string;
  readonly traceId: string;
  readonly attributes: readonly OtlpAttribute[];
}
interface OtlpBody {
  readonly resourceSpans: readonly {
    readonly resource: { readonly attributes: readonly OtlpAttribute[] };
    readonly scopeSpans: readonly { readonly spans: readonly OtlpSpan[] }[];
  }[];
}

function bodyOf(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** A receiver of OTLP/HTTP JSON on 127.0.0.1: keeps each request's path, content type and decoded body. */
async function receiver() {
  const received: { path: string; type: string; body: OtlpBody }[] = [];
  const server: Server = createServer((request, response) => {
    bodyOf(request).then((text) => {
      received.push({
        path: request.url ?? '',
        type: request.headers['content-type'] ?? '',
        body: JSON.parse(text) as OtlpBody,
      });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    received,
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

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
      const resourceSpans = server.received.flatMap((r) => r.body.resourceSpans);
      const resource = Object.fromEntries(
        (resourceSpans[0]?.resource.attributes ?? []).map((a) => [a.key, a.value.stringValue]),
      );
      expect(resource).toMatchObject({
        'service.name': 'otlp-test',
        'deployment.environment.name': 'test',
      });
      const spans = resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
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
