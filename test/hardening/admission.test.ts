import { describe, expect, it } from 'vitest';
import { dag } from '../../src/document/builder.ts';
import type { Dag, DagLibrary } from '../../src/document/model.ts';
import { isSwitchyardError, type SwitchyardError } from '../../src/errors.ts';
import { compile } from '../../src/graph/compile.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { defineNode } from '../../src/runtime/node.ts';

const clock = () => createVirtualClock({ auto: true });
const policy = { defaults: { backoff: { strategy: 'constant' as const, baseMs: 1 } } };

/** A node that always asks to go round again, counting its calls. */
function stubborn(id: string) {
  const node = {
    calls: 0,
    ...defineNode({
      id,
      outputs: ['ok', 'again'],
      run: () => {
        node.calls++;
        return 'again';
      },
    }),
  };
  return node;
}

/** One task retried on `again` with a budget of `max`, ending at `gave_up` once spent. */
function loop(id: string, node: string, max: number): Dag {
  return dag(id, { name: 'loop', version: '1' })
    .budget('again', max)
    .entry('work')
    .task('work', node)
    .route('ok', 'done')
    .retry('again', 'work', { budget: 'again', exhausted: 'gave_up' })
    .terminal('done', 'completed')
    .terminal('gave_up', 'failed')
    .build();
}

/** The same task looping back with no budget: analysis refuses it with E_UNBOUNDED_LOOP. */
function unbounded(id: string, node: string): Dag {
  return dag(id, { name: 'unbounded', version: '1' })
    .entry('work')
    .task('work', node)
    .route('ok', 'done')
    .route('again', 'work')
    .terminal('done', 'completed')
    .build();
}

/** A parent that embeds `child` once. */
function embedding(child: string): Dag {
  return dag('urn:test:parent', { name: 'parent', version: '1' })
    .entry('inner')
    .embed('inner', child)
    .route('completed', 'done')
    .route('failed', 'done')
    .terminal('done', 'completed')
    .build();
}

/** A parent that scatters its `xs` over `child`. */
function scattering(child: string): Dag {
  return dag('urn:test:fan', { name: 'fan', version: '1' })
    .entry('fan')
    .scatter('fan', { items: '/xs', dag: child })
    .route('done', 'join')
    .gather('join', { into: '/out', reducer: 'partition', require: 'any' })
    .route('completed', 'done')
    .route('failed', 'done')
    .terminal('done', 'completed')
    .build();
}

/** A library over a map that the test may change between runs. */
function mutableLibrary(docs: Map<string, Dag>): DagLibrary {
  return { get: (id) => docs.get(id) };
}

async function rejection(promise: PromiseLike<unknown>): Promise<SwitchyardError> {
  try {
    await promise;
  } catch (error) {
    if (isSwitchyardError(error)) return error;
    throw error;
  }
  throw new Error('expected the run to be refused');
}

describe('what was admitted is what runs', () => {
  it('raising a budget max after the first run does not loosen the bound of later runs', async () => {
    const node = stubborn('urn:test:stubborn');
    const doc = loop('urn:test:loop', node.id, 2);
    const dispatcher = createDispatcher({ nodes: [node], clock: clock(), policy });
    expect((await dispatcher.run(doc)).items[0]?.terminal).toBe('gave_up');
    expect(node.calls).toBe(3);
    try {
      (doc.budgets[0] as { max: number }).max = 1000;
    } catch {
      // A frozen model refusing the change is as good as ignoring it.
    }
    node.calls = 0;
    expect((await dispatcher.run(doc)).items[0]?.terminal).toBe('gave_up');
    expect(node.calls).toBe(3);
  });

  it('removing a retry route’s budget after the first run does not unbound later runs', async () => {
    const node = stubborn('urn:test:stubborn');
    const doc = loop('urn:test:loop', node.id, 1);
    const dispatcher = createDispatcher({ nodes: [node], clock: clock(), policy });
    await dispatcher.run(doc);
    const work = doc.placements.find((p) => p.key === 'work');
    try {
      for (const r of (work?.routes ?? []) as unknown as { kind: string }[]) r.kind = 'next';
    } catch {
      // Frozen: the change is refused outright.
    }
    node.calls = 0;
    const result = await dispatcher.run(doc);
    expect(result.items[0]?.terminal).toBe('gave_up');
    expect(node.calls).toBe(2);
  });

  it('a compiled DAG handed in is run as its admitted model, not as its tampered compiled form', async () => {
    const node = stubborn('urn:test:stubborn');
    const compiled = compile(loop('urn:test:loop', node.id, 1));
    (compiled as { budgets: unknown }).budgets = [{ name: 'again', max: 50 }];
    const result = await createDispatcher({ nodes: [node], clock: clock(), policy }).run(compiled);
    expect(result.items[0]?.terminal).toBe('gave_up');
    expect(node.calls).toBe(2);
  });

  for (const [kind, parent] of [
    ['embedded', embedding('urn:test:child')],
    ['scatter body', scattering('urn:test:child')],
  ] as const) {
    it(`raising the budget of an ${kind} document after the first run changes nothing`, async () => {
      const node = stubborn('urn:test:stubborn');
      const child = loop('urn:test:child', node.id, 2);
      const docs = new Map([[child.id, child]]);
      const dispatcher = createDispatcher({
        nodes: [node],
        clock: clock(),
        policy,
        library: mutableLibrary(docs),
      });
      await dispatcher.run(parent, { xs: [1] });
      expect(node.calls).toBe(3);
      try {
        (child.budgets[0] as { max: number }).max = 1000;
      } catch {
        // Frozen.
      }
      node.calls = 0;
      await dispatcher.run(parent, { xs: [1] });
      expect(node.calls).toBe(3);
    });

    it(`replacing an ${kind} document with an unbounded loop after the first run is refused`, async () => {
      const node = stubborn('urn:test:stubborn');
      // The replacement's node ends the loop by itself after a few calls, so a run that was let through
      // would end rather than hang; analysis must refuse it before any call.
      let looseCalls = 0;
      const loose = defineNode({
        id: 'urn:test:loose',
        outputs: ['ok', 'again'],
        run: () => (++looseCalls < 5 ? 'again' : 'ok'),
      });
      const docs = new Map([['urn:test:child', loop('urn:test:child', node.id, 1)]]);
      const dispatcher = createDispatcher({
        nodes: [node, loose],
        clock: clock(),
        policy,
        library: mutableLibrary(docs),
      });
      await dispatcher.run(parent, { xs: [1] });
      docs.set('urn:test:child', unbounded('urn:test:child', loose.id));
      const error = await rejection(dispatcher.run(parent, { xs: [1] }));
      expect(error.code).toBe('E_UNBOUNDED_LOOP');
      expect(error.problems.map((p) => p.code)).toContain('E_UNBOUNDED_LOOP');
      expect(looseCalls).toBe(0);
    });
  }

  it('a library that returns another object at run time gets that object admitted before it runs', async () => {
    const node = stubborn('urn:test:stubborn');
    let looseCalls = 0;
    const loose = defineNode({
      id: 'urn:test:loose',
      outputs: ['ok', 'again'],
      run: () => (++looseCalls < 5 ? 'again' : 'ok'),
    });
    // Good until the embed placement starts, unbounded from then on: a check-then-use gap is all it takes.
    let running = false;
    const library: DagLibrary = {
      get: (id) =>
        id !== 'urn:test:child'
          ? undefined
          : running
            ? unbounded('urn:test:child', loose.id)
            : loop('urn:test:child', node.id, 1),
    };
    const dispatcher = createDispatcher({ nodes: [node, loose], clock: clock(), policy, library });
    const outcome = await dispatcher
      .run(
        embedding('urn:test:child'),
        {},
        {
          onEvent: (e) => {
            if (e.type === 'placement.start' && e.placement === 'inner') running = true;
          },
        },
      )
      .then(
        (result) => result.failures.map((f) => f.error.code),
        (error: unknown) => [isSwitchyardError(error) ? error.code : String(error)],
      );
    expect(outcome).toEqual(['E_UNBOUNDED_LOOP']);
    expect(looseCalls).toBe(0);
  });
});

describe('a refused document gets every problem, and a command that exists', () => {
  // Built by hand: the builder would refuse it. A dangling route, an unknown budget and an unbounded loop.
  const broken: Dag = {
    id: 'urn:test:broken',
    name: 'broken',
    version: '1',
    entrypoints: ['a'],
    budgets: [],
    placements: [
      {
        kind: 'task',
        key: 'a',
        node: 'urn:test:n',
        routes: [
          { output: 'next', to: 'b', kind: 'next' },
          { output: 'lost', to: 'nowhere', kind: 'next' },
          { output: 'retry', to: 'a', kind: 'retry', budget: 'ghost', exhausted: 'done' },
        ],
      },
      {
        kind: 'task',
        key: 'b',
        node: 'urn:test:n',
        routes: [
          { output: 'next', to: 'a', kind: 'next' },
          { output: 'ok', to: 'done', kind: 'next' },
        ],
      },
      { kind: 'terminal', key: 'done', outcome: 'completed', routes: [] },
    ],
  };
  const n = defineNode({ id: 'urn:test:n', outputs: ['next', 'lost', 'retry', 'ok'], run: () => 'ok' });

  it('lists every problem in error.problems instead of stopping at the first compile error', async () => {
    const error = await rejection(createDispatcher({ nodes: [n], clock: clock() }).run(broken));
    const codes = error.problems.map((p) => p.code);
    expect(codes).toEqual(
      expect.arrayContaining(['E_DANGLING_ROUTE', 'E_UNKNOWN_BUDGET', 'E_UNBOUNDED_LOOP']),
    );
    expect(error.message).toMatch(/and \d+ more problems/);
  });

  it('names `switchyard validate`, a command that exists, in one line', async () => {
    const error = await rejection(createDispatcher({ nodes: [n], clock: clock() }).run(broken));
    expect(error.message).toContain('switchyard validate');
    expect(error.message).not.toContain('switchyard check');
    expect(error.message).not.toContain('\n');
  });
});
