import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ARCHIVIST } from '../cli-entry.ts';
import { otlpSpans, receiver } from './receiver.ts';

const run = promisify(execFile);

describe('archivist ask --otel', () => {
  it('exports the question run trace under the service archivist', { timeout: 60_000 }, async () => {
    const server = await receiver();
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: server.url };
      delete env.OTEL_SERVICE_NAME;
      await run(process.execPath, [...ARCHIVIST, 'ask', 'books by George Orwell', '--no-store', '--otel'], {
        env,
      });
      const { resource, spans } = otlpSpans(server.received);
      expect(resource['service.name']).toBe('archivist');
      expect(spans.some((s) => s.name.startsWith('invoke_workflow '))).toBe(true);
      expect(spans.length).toBeGreaterThan(3);
    } finally {
      await server.close();
    }
  });
});
