import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDagFolder } from '../../src/document/load.ts';
import type { Dag, DagLibrary } from '../../src/document/model.ts';
import { seededRandom } from '../../src/policy/random.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { toMermaid } from '../../src/render/mermaid.ts';
import { createRenderer, type Renderer } from '../../src/render/renderer.ts';
import { summariseTrace } from '../../src/render/trace.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { defineNode } from '../../src/runtime/node.ts';

// The editor finds every answer stale: two fresh compositions (budget `review` ≤ 2), then the exhaustion
// route to `escalate`. The embedded compose/validate run accepts the first draft.
const nodes = [
  defineNode({ id: 'urn:switchyard:node:compose', outputs: ['drafted'], run: () => 'drafted' }),
  defineNode({
    id: 'urn:switchyard:node:validate',
    outputs: ['valid', 'invalid'],
    run: (item) => {
      item.data.draft = `about ${String(item.data.topic)}`;
      return 'valid';
    },
  }),
  defineNode({ id: 'urn:switchyard:node:salvage', outputs: ['salvaged'], run: () => 'salvaged' }),
  defineNode({
    id: 'urn:switchyard:node:review',
    outputs: ['approved', 'stale'],
    run: () => ({ output: 'stale', reason: 'out of date' }),
  }),
  defineNode({ id: 'urn:switchyard:node:escalate', outputs: ['queued'], run: () => 'queued' }),
];

let renderer: Renderer;
let review: Dag;
let library: DagLibrary;
const events: RunEvent[] = [];

beforeAll(async () => {
  const loaded = await loadDagFolder(['dags']);
  library = loaded.library;
  review = library.get('urn:switchyard:dag:review') as Dag;
  const dispatcher = createDispatcher({
    nodes,
    library,
    clock: createVirtualClock({ auto: true }),
    random: seededRandom(7),
    policy: { defaults: { backoff: { strategy: 'constant', baseMs: 250 }, jitter: 'none' } },
  });
  await dispatcher.run(review, { topic: 'whales' }, { onEvent: (e) => events.push(e) });
  renderer = await createRenderer();
});
afterAll(() => renderer?.close());

describe('a real run drawn over its DAG', () => {
  it('marks the two retries with their waits and the exhaustion to the salvage placement', async () => {
    const text = toMermaid(review, { library, trace: summariseTrace(events) });
    expect(text).toContain('stale · retry · review ≤ 2 · ×2 · waited 500 ms');
    expect(text).toMatch(/review exhausted · ×1/);
    const svg = new TextDecoder().decode(await renderer.render(text, 'svg'));
    expect(XMLValidator.validate(svg)).toBe(true);
    const words = svg.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');
    expect(words.includes('×2')).toBe(true);
    expect(words.includes('Escalate to a person')).toBe(true);
  });
});
