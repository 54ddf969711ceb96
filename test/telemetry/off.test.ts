import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { loadedBy } from '../cli/loaded-modules.ts';
import { loadDag, virtualClock } from '../runtime/helpers.ts';

const FIXTURE = 'test/fixtures/nodes/compose-validate.ts';
const OTEL = /^@opentelemetry\//u;

describe('tracing off', () => {
  it('loads no OpenTelemetry package for a run without --otel, and the exporter with it', async () => {
    const args = ['run', 'dags/compose-validate.jsonld', '--nodes', FIXTURE, '--no-store', '--virtual-time'];
    const off = await loadedBy('bin/dev/switchyard.js', args);
    expect([...off.packages].filter((name) => OTEL.test(name))).toEqual([]);
    expect([...off.files].filter((file) => file.startsWith('src/telemetry/otlp'))).toEqual([]);
    const on = await loadedBy('bin/dev/switchyard.js', [...args, '--otel']);
    expect(on.packages.has('@opentelemetry/exporter-trace-otlp-http')).toBe(true);
  });

  it('gives a node no span', async () => {
    let seen: unknown = 'not called';
    const node = defineNode({
      id: 'urn:switchyard:node:compose',
      outputs: ['drafted'],
      run: (_item, ctx) => {
        seen = ctx.span;
        return 'drafted';
      },
    });
    const others = [
      defineNode({ id: 'urn:switchyard:node:validate', outputs: ['valid', 'invalid'], run: () => 'valid' }),
      defineNode({ id: 'urn:switchyard:node:salvage', outputs: ['salvaged'], run: () => 'salvaged' }),
    ];
    const run = createDispatcher({ nodes: [node, ...others], clock: virtualClock() }).run(
      await loadDag('compose-validate'),
      { topic: 'whales' },
    );
    await run;
    expect(seen).toBeUndefined();
  });
});
