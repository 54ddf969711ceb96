import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An attribute as OTLP/JSON writes it. */
export interface OtlpAttribute {
  readonly key: string;
  readonly value: { readonly stringValue?: string; readonly intValue?: string | number };
}
/** A span as OTLP/JSON writes it. */
export interface OtlpSpan {
  readonly name: string;
  readonly traceId: string;
  readonly attributes: readonly OtlpAttribute[];
}
/** An OTLP/JSON export request. */
export interface OtlpBody {
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
export async function receiver() {
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

/** The spans of every request received, and the resource attributes of the first. */
export function otlpSpans(received: readonly { readonly body: OtlpBody }[]) {
  const resourceSpans = received.flatMap((r) => r.body.resourceSpans);
  const resource = Object.fromEntries(
    (resourceSpans[0]?.resource.attributes ?? []).map((a) => [a.key, a.value.stringValue]),
  );
  const spans = resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
  return { resource, spans };
}
