import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { SWITCHYARD } from '../cli-entry.ts';
import { DAGS } from '../runtime/helpers.ts';
import { otlpSpans, receiver } from './receiver.ts';

const run = promisify(execFile);
const FIXTURE = fileURLToPath(new URL('../fixtures/nodes/compose-validate.ts', import.meta.url));
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('switchyard run --otel', () => {
  it('exports the run spans to the collector the OTEL_* variables name, before it exits', async () => {
    const server = await receiver();
    const dir = await mkdtemp(join(tmpdir(), 'switchyard-otel-'));
    dirs.push(dir);
    try {
      const { stdout } = await run(
        process.execPath,
        [
          ...SWITCHYARD,
          'run',
          join(DAGS, 'compose-validate.jsonld'),
          '--nodes',
          FIXTURE,
          '--input',
          '{"topic":"whales"}',
          '--no-store',
          '--virtual-time',
          '--otel',
          '--json',
        ],
        {
          cwd: dir,
          env: {
            ...process.env,
            OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${server.url}/traces-here`,
            OTEL_SERVICE_NAME: 'cli-test',
          },
        },
      );
      const result = JSON.parse(stdout) as { runId: string };
      expect(server.received.map((r) => r.path)).toContain('/traces-here');
      const { resource, spans } = otlpSpans(server.received);
      expect(resource['service.name']).toBe('cli-test');
      const runSpan = spans.find((s) => s.name === 'invoke_workflow Compose and validate');
      expect(runSpan?.attributes).toContainEqual({
        key: 'switchyard.run.id',
        value: { stringValue: result.runId },
      });
      expect(spans.filter((s) => s.name === 'compose').length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});
