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
    });
    expect(dag?.salvages.get(retryKey('validate', 'salvage'))?.count).toBe(1);
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

/** The events of one `unclear` retry waiting 250 ms; `output` in retry.scheduled only when asked. */
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
  const events = routeFirst ? [route, scheduled] : [scheduled, route];
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
    const events = unclearRetry(false, true).filter((e) => e.type === 'retry.scheduled');
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
