/**
 * Nested fan outs resumed at each depth: a scatter whose body document embeds a document with a scatter of
 * its own, re-entered by a retry loop on a second visit. Whatever commit the first process died after, the
 * resumed run gives the uninterrupted run's result and starts each parent's placement as often as it does.
 */
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import type { Dag } from '../../src/document/model.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import type { RunStore } from '../../src/store/types.ts';
import { storedEvents, streamProblems } from './helpers.ts';
import { outcomeOf, runThroughCrashes } from './helpers-attempts.ts';
import { newLog, POLICY, type Process, scenarioNodes } from './helpers-scenarios.ts';

const inner: Dag = dag('urn:t:nest-inner', { name: 'inner', version: '1' })
  .entry('fan2')
  .scatter('fan2', { items: '/xs', node: 'urn:t:body' })
  .route('done', 'join2')
  .gather('join2', { into: '/out' })
  .route('completed', 'ok')
  .route('failed', 'bad')
  .terminal('ok', 'completed')
  .terminal('bad', 'failed')
  .build();

const mid: Dag = dag('urn:t:nest-mid', { name: 'mid', version: '1' })
  .entry('em')
  .embed('em', inner.id, {
    input: [{ from: '/item/xs', to: '/xs' }],
    result: [{ from: '/out', to: '/result' }],
  })
  .route('completed', 'done')
  .route('failed', 'gave_up')
  .terminal('done', 'completed')
  .terminal('gave_up', 'failed')
  .build();

const outer: Dag = dag('urn:t:nest-outer', { name: 'outer', version: '1' })
  .budget('again', 2)
  .entry('fan')
  .scatter('fan', { items: '/xs', dag: mid.id })
  .route('done', 'join')
  .gather('join', { into: '/out' })
  .route('completed', 'validate')
  .route('failed', 'bad')
  .task('validate', 'urn:t:validate')
  .route('valid', 'ok')
  .retry('invalid', 'fan', { budget: 'again', exhausted: 'bad' })
  .terminal('ok', 'completed')
  .terminal('bad', 'failed')
  .build();

const library = new Map([inner, mid].map((d) => [d.id, d]));
const dispatcher = (process: Process, store: RunStore) =>
  createDispatcher({
    nodes: scenarioNodes(process, newLog()),
    clock: process.clock,
    policy: POLICY,
    library: { get: (iri) => library.get(iri) },
    store,
  });

const items = [
  {
    passAt: 2,
    xs: [
      {
        xs: [
          { ms: 100, v: 1 },
          { ms: 50, v: 2 },
        ],
      },
      { xs: [{ ms: 30, v: 3 }] },
      { xs: [] },
    ],
  },
];

/** How many times each parent started its scatter or embed, as `<item> <placement> <count>`, sorted. */
function startCounts(events: readonly RunEvent[]): string[] {
  const counts = new Map<string, number>();
  for (const e of events) {
    if (e.type !== 'placement.start' || !['fan', 'em', 'fan2'].includes(e.placement)) continue;
    // A node body's child starts the scatter's placement too: each run of its body (again, when open).
    if (e.placement === 'fan2' && !e.item.endsWith('/em')) continue;
    const key = `${e.item} ${e.placement}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, n]) => `${key} ${n}`).sort();
}

describe('nested fan outs, a retry loop re-entering the outer scatter', () => {
  it('resume at each depth to the uninterrupted result, each parent started as often', async () => {
    const cleanStore = createMemoryStore();
    const clean = await runThroughCrashes(cleanStore, { dag: outer, items, runId: 'nest' }, [], dispatcher);
    expect(clean.result.items[0]?.data.out).toEqual([[10, 20], [30], []]);
    const cleanEvents = await storedEvents(cleanStore, 'nest');
    const whole = outcomeOf(clean.result);
    const parents = startCounts(cleanEvents);
    expect(parents).toContain('1 fan 2');
    const problems: string[] = [];
    let interrupted = 0;
    const crashes = [
      ...Array.from({ length: 60 }, (_, i) => ({ kind: 'freeze', commits: i + 1 }) as const),
      ...Array.from({ length: 120 }, (_, i) => ({ kind: 'abort', event: i + 1 }) as const),
    ];
    for (const crash of crashes) {
      const commits = crash.kind === 'freeze' ? `freeze ${crash.commits}` : `abort ${crash.event}`;
      const store = createMemoryStore();
      const run = await runThroughCrashes(store, { dag: outer, items, runId: 'nest' }, [crash], dispatcher);
      if (run.processes === 1) continue;
      interrupted++;
      const events = await storedEvents(store, 'nest');
      if (!isDeepStrictEqual(outcomeOf(run.result), whole)) problems.push(`${commits}: another result`);
      const seen = startCounts(events);
      if (!isDeepStrictEqual(seen, parents)) problems.push(`${commits}: starts ${seen.join(', ')}`);
      problems.push(...streamProblems(events, 1, true).map((p) => `${commits}: ${p}`));
    }
    expect(interrupted).toBeGreaterThan(50);
    expect(problems).toEqual([]);
  });
});
