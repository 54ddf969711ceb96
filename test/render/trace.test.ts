import { describe, expect, it } from 'vitest';
import { loadDagFile } from '../../src/document/load.ts';
import type { Dag } from '../../src/document/model.ts';
import { isSwitchyardError } from '../../src/errors.ts';
import { toMermaid } from '../../src/render/mermaid.ts';
import { edgeKey, parseTrace, retryKey, summariseTrace } from '../../src/render/trace.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { composeValidateTrace, toJsonl } from './trace-fixture.ts';

const DAG = 'urn:switchyard:dag:compose-validate';

function traceError(text: string): string {
  try {
    parseTrace(text, 'run.jsonl');
  } catch (error) {
    if (isSwitchyardError(error)) return `${error.code} ${error.message}`;
    throw error;
  }
  throw new Error('parseTrace accepted a bad trace');
}

describe('parseTrace', () => {
  it('reads every event and skips blank lines', () => {
    const events = composeValidateTrace();
    expect(parseTrace(`${toJsonl(events)}\n\n`)).toEqual(events);
  });

  it('names the file and line of a bad line', () => {
    const good = toJsonl(composeValidateTrace().slice(0, 6));
    expect(traceError(`${good}{not json`)).toMatch(/^E_TRACE run\.jsonl:7: not a JSON event — /);
    expect(traceError('[1,2]')).toMatch(/^E_TRACE run\.jsonl:1: not a JSON event/);
    expect(traceError('{"type":"nope"}')).toMatch(/run\.jsonl:1: .*unknown type "nope"/);
    expect(traceError('{"type":"route","dag":"d","from":"a","output":"o","kind":"next"}')).toMatch(
      /run\.jsonl:1: 'route' event lacks the string field 'to'/,
    );
  });
});

describe('summariseTrace', () => {
  it('counts visits, edges, retry waits and salvages per DAG', () => {
    const summary = summariseTrace(composeValidateTrace());
    const dag = summary.dags.get(DAG);
    expect(dag?.visits).toEqual(
      new Map([
        ['compose', 3],
        ['validate', 3],
        ['salvage', 1],
        ['salvaged', 1],
      ]),
    );
    expect(dag?.edges.get(edgeKey('validate', 'invalid', 'retry'))?.count).toBe(2);
    expect(dag?.edges.get(edgeKey('validate', 'invalid', 'exhausted'))?.count).toBe(1);
    expect(dag?.edges.get(edgeKey('compose', 'drafted', 'next'))?.count).toBe(3);
    expect(dag?.retries.get(retryKey('validate', 'compose', 'compose', 'invalid'))).toEqual({
      from: 'validate',
      output: 'invalid',
      to: 'compose',
      budget: 'compose',
      waitsMs: [100, 200],
      totalMs: 300,
      pendingMs: [],
    });
    expect(dag?.salvages.get(edgeKey('validate', 'invalid', 'exhausted'))).toMatchObject({
      to: 'salvage',
      count: 1,
    });
  });
});

/** Two retry routes from one placement to the same target on the same budget, told apart by output. */
const twoRetries: Dag = {
  id: 'urn:test:two-retries',
  name: 'two retries',
  version: '1',
  entrypoints: ['ask'],
  budgets: [{ name: 'ask', max: 2 }],
  placements: [
    {
      key: 'ask',
      kind: 'task',
      node: 'urn:x:ask',
      routes: [
        { output: 'ok', to: 'done', kind: 'next' },
        { output: 'busy', to: 'ask', kind: 'retry', budget: 'ask', exhausted: 'done' },
        { output: 'unclear', to: 'ask', kind: 'retry', budget: 'ask', exhausted: 'done' },
      ],
    },
    { key: 'done', kind: 'terminal', outcome: 'completed', routes: [] },
  ],
};

/**
 * The events of one `unclear` retry waiting 250 ms, then the retry starting; `output` in retry.scheduled only
 * when asked.
 */
function unclearRetry(withOutput: boolean, routeFirst: boolean): RunEvent[] {
  const base = { runId: 'r', item: '1', dag: twoRetries.id, time: 0 };
  const route = { ...base, seq: 0, type: 'route', from: 'ask', output: 'unclear', to: 'ask', kind: 'retry' };
  const scheduled = {
    ...base,
    seq: 1,
    type: 'retry.scheduled',
    from: 'ask',
    ...(withOutput ? { output: 'unclear' } : {}),
    to: 'ask',
    budget: 'ask',
    attempt: 1,
    delayMs: 250,
    delaySource: 'backoff',
  };
  const retried = { ...base, seq: 2, time: 250, type: 'placement.start', placement: 'ask', visit: 2 };
  const events = routeFirst ? [route, scheduled, retried] : [scheduled, route, retried];
  return events as unknown as RunEvent[];
}

describe('retry waits of parallel retry routes', () => {
  it.each([
    ['the event names the output', true, true],
    ['an older trace, route event before', false, true],
    ['an older trace, route event after', false, false],
  ])('puts the wait on the route taken: %s', (_, withOutput, routeFirst) => {
    const text = toMermaid(twoRetries, { trace: summariseTrace(unclearRetry(withOutput, routeFirst)) });
    expect(text).toContain(
      'n_ask -.->|"busy · retry · ask ≤ 2<br/>unclear · retry · ask ≤ 2 · ×1 · waited 250 ms"| n_ask',
    );
  });

  it('falls back to the budget when an older trace gives no way to tell the output', () => {
    const events = unclearRetry(false, true).filter((e) => e.type !== 'route');
    const dag = summariseTrace(events).dags.get(twoRetries.id);
    expect(dag?.retries.get(retryKey('ask', 'ask', 'ask'))?.totalMs).toBe(250);
    expect(toMermaid(twoRetries, { trace: summariseTrace(events) })).toContain('waited 250 ms');
  });

  it('rejects a non-string output', () => {
    const line = JSON.stringify({ ...unclearRetry(true, true)[1], output: 3 });
    expect(traceError(line)).toMatch(/'retry.scheduled' event has a non-string 'output'/);
  });
});

describe('trace overlay', () => {
  it('writes counts and waits on taken edges, marks the salvage, dims the rest', async () => {
    const { dag } = await loadDagFile('dags/compose-validate.jsonld');
    if (!dag) throw new Error('compose-validate did not load');
    const text = toMermaid(dag, { trace: summariseTrace(composeValidateTrace()) });
    expect(text).toContain('n_validate -.->|"invalid · retry · compose ≤ 3 · ×2 · waited 300 ms"| n_compose');
    expect(text).toContain('n_validate ==>|"compose exhausted · ×1 · salvaged ×1"| n_salvage');
    expect(text).toContain('n_compose["Compose draft<br/>task · ×3"]');
    expect(text).toMatch(/class n_compose,n_validate,n_salvage,n_salvaged visited/);
    expect(text).toMatch(/class n_done,n_failed dim/);
    const lines = text.split('\n');
    const edges = lines.filter((l) => / (-->|-\.->|==>)/.test(l));
    const styles = lines.filter((l) => l.startsWith('  linkStyle '));
    expect(styles.length).toBe(edges.length);
    const retryIndex = edges.findIndex((l) => l.includes('×2'));
    expect(styles[retryIndex]).toMatch(/stroke-width:4px/);
    const untaken = edges.findIndex((l) => l.includes('"valid"'));
    expect(styles[untaken]).toContain('stroke-opacity:0.3');
  });
});

/** A DAG whose placement `call` reaches `rescue` three ways: a salvage route and two retry routes' exhaustion. */
const joined: Dag = {
  id: 'urn:test:joined',
  name: 'joined',
  version: '1',
  entrypoints: ['call'],
  budgets: [
    { name: 'busy', max: 1 },
    { name: 'vague', max: 1 },
  ],
  placements: [
    {
      key: 'call',
      kind: 'task',
      node: 'urn:x:call',
      routes: [
        { output: 'ok', to: 'done', kind: 'next' },
        { output: 'error', to: 'rescue', kind: 'salvage' },
        { output: 'busy', to: 'call', kind: 'retry', budget: 'busy', exhausted: 'rescue' },
        { output: 'vague', to: 'call', kind: 'retry', budget: 'vague', exhausted: 'rescue' },
      ],
    },
    {
      key: 'rescue',
      kind: 'task',
      node: 'urn:x:rescue',
      routes: [{ output: 'ok', to: 'done', kind: 'next' }],
    },
    { key: 'done', kind: 'terminal', outcome: 'completed', routes: [] },
  ],
};

/** Builds events of `joined` as the dispatcher writes them, numbered and timed. */
function joinedEvents(bodies: Record<string, unknown>[]): RunEvent[] {
  return bodies.map(
    (body, seq) => ({ runId: 'r', dag: joined.id, seq, time: 0, ...body }) as unknown as RunEvent,
  );
}

/** Item `item` leaving `call` on `output` for `rescue` along a salvage route or an exhaustion edge. */
function rescued(item: string, output: string, kind: 'salvage' | 'exhausted'): Record<string, unknown>[] {
  return [
    { type: 'placement.start', item, placement: 'call', visit: 1 },
    ...(kind === 'exhausted'
      ? [{ type: 'budget.exhausted', item, from: 'call', budget: output, to: 'rescue', why: 'spent' }]
      : []),
    { type: 'route', item, from: 'call', output, to: 'rescue', kind },
    { type: 'salvage', item, from: 'call', to: 'rescue' },
    { type: 'placement.start', item, placement: 'rescue', visit: 1 },
  ];
}

describe('salvages where routes join the same placements', () => {
  it('counts each salvage on the edge the item came along', () => {
    const events = joinedEvents([
      ...rescued('1', 'error', 'salvage'),
      ...rescued('2', 'error', 'salvage'),
      ...rescued('3', 'vague', 'exhausted'),
    ]);
    const trace = summariseTrace(events).dags.get(joined.id);
    expect(trace?.salvages.get(edgeKey('call', 'error', 'salvage'))?.count).toBe(2);
    expect(trace?.salvages.get(edgeKey('call', 'vague', 'exhausted'))?.count).toBe(1);
    expect(trace?.salvages.get(edgeKey('call', 'busy', 'exhausted'))).toBeUndefined();
    const text = toMermaid(joined, { trace: summariseTrace(events) });
    // The two exhaustion edges are drawn as one: one line per budget, each with its own salvages.
    expect(text).toContain('n_call ==>|"busy exhausted<br/>vague exhausted · ×1 · salvaged ×1"| n_rescue');
    expect(text).toContain('n_call -->|"error · salvage · ×2"| n_rescue');
  });

  it('sums the salvages of two exhaustion edges of one budget drawn as one line', () => {
    const shared: Dag = {
      ...joined,
      placements: joined.placements.map((p) =>
        p.key === 'call'
          ? { ...p, routes: p.routes.map((r) => (r.kind === 'retry' ? { ...r, budget: 'busy' } : r)) }
          : p,
      ),
    };
    const events = joinedEvents([
      ...rescued('1', 'busy', 'exhausted'),
      ...rescued('2', 'vague', 'exhausted'),
    ]);
    expect(toMermaid(shared, { trace: summariseTrace(events) })).toContain(
      'n_call ==>|"busy exhausted · ×2 · salvaged ×2"| n_rescue',
    );
  });
});

describe('retry waits still under way', () => {
  const wait = (item: string, delayMs: number, time: number): Record<string, unknown>[] => [
    { type: 'placement.start', item, placement: 'call', visit: 1, time },
    { type: 'route', item, from: 'call', output: 'busy', to: 'call', kind: 'retry', time },
    {
      type: 'retry.scheduled',
      item,
      from: 'call',
      output: 'busy',
      to: 'call',
      budget: 'busy',
      attempt: 1,
      delayMs,
      delaySource: 'retry-after',
      time,
    },
  ];

  it('counts as waited only the waits that are over, and names those under way', () => {
    const events = joinedEvents([
      ...wait('1', 4000, 0),
      { type: 'placement.start', item: '1', placement: 'call', visit: 2, time: 4000 },
      ...wait('2', 10_000, 4000),
    ]);
    const trace = summariseTrace(events).dags.get(joined.id);
    expect(trace?.retries.get(retryKey('call', 'call', 'busy', 'busy'))).toMatchObject({
      waitsMs: [4000],
      totalMs: 4000,
      pendingMs: [10_000],
    });
    expect(toMermaid(joined, { trace: summariseTrace(events) })).toContain(
      'busy · retry · busy ≤ 1 · ×2 · waited 4000 ms · waiting 10.0 s',
    );
  });

  it('counts a wait the run ended, or a cancellation cut, for as long as it lasted', () => {
    const events = joinedEvents([
      ...wait('1', 10_000, 0),
      ...wait('2', 10_000, 0),
      { type: 'item.cancelled', item: '2', placement: 'call', waitingFor: 'backoff', time: 1500 },
      { type: 'run.end', status: 'aborted', completed: 0, failed: 0, durationMs: 3000, time: 3000 },
    ]);
    const trace = summariseTrace(events).dags.get(joined.id);
    expect(trace?.retries.get(retryKey('call', 'call', 'busy', 'busy'))).toMatchObject({
      waitsMs: [3000, 1500],
      totalMs: 4500,
      pendingMs: [],
    });
  });
});
