/**
 * A `first` gather's value is the child that completed first, by the order the children settled. A durable
 * run that dies after its scatter's children ended, before their parent moved on, resumes to the same value:
 * the ended children settle again in the order they first settled, not in input order.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/store/memory.ts';
import { outcomeOf, runThroughCrashes } from './helpers-attempts.ts';
import { fanDag, newLog, scenarioDispatcher } from './helpers-scenarios.ts';

// Child 2 completes first (100 ms), child 0 next (200 ms), child 1 fails last (300 ms): every child settles,
// and the gather's value is child 2's.
const dag = fanDag('urn:t:first-order', 'node', { reducer: 'first', require: 'all' });
const items = [
  {
    xs: [
      { ms: 200, v: 1 },
      { ms: 300, v: 2, fail: true },
      { ms: 100, v: 3 },
    ],
  },
];

describe('a first gather resumed after its children ended', () => {
  it('takes the child that completed first, whatever commit the first process died after', async () => {
    const clean = await runThroughCrashes(createMemoryStore(), { dag, items, runId: 'clean' }, [], (p, s) =>
      scenarioDispatcher(p, newLog(), s),
    );
    expect(clean.result.items[0]?.data.out).toBe(30);
    for (let commits = 1; commits <= 8; commits++) {
      const store = createMemoryStore();
      const log = newLog();
      const attempts = await runThroughCrashes(
        store,
        { dag, items, runId: 'first' },
        [{ kind: 'freeze', commits }],
        (p, s) => scenarioDispatcher(p, log, s),
      );
      expect({ commits, outcome: outcomeOf(attempts.result) }).toEqual({
        commits,
        outcome: outcomeOf(clean.result),
      });
    }
  });
});

describe.each([
  ['node', 'any'],
  ['node', 'all'],
  ['dag', 'any'],
  ['dag', 'all'],
] as const)('a first gather of a %s body, require %s, through crashes', (body, require) => {
  it('gives the uninterrupted result whatever commit or event the first process stopped at', async () => {
    const fan = fanDag(`urn:t:first-${body}-${require}`, body, { reducer: 'first', require });
    const xs =
      body === 'node'
        ? [
            { ms: 400, v: 1 },
            { ms: 300, v: 2, fail: true },
            { ms: 100, v: 3 },
            { ms: 100, v: 4 },
            { ms: 250, v: 5 },
          ]
        : [{ ms: 400 }, { ms: 300, tries: 2 }, { ms: 100, tries: 3 }, { ms: 150 }, { ms: 250, throws: 400 }];
    const run = { dag: fan, items: [{ xs }], runId: 'f' };
    const clean = await runThroughCrashes(createMemoryStore(), run, [], (p, s) =>
      scenarioDispatcher(p, newLog(), s),
    );
    // What the gather gave: a cancelled straggler may get further before a restart than in one process (its
    // back-offs end while the run is down), so its steps are not compared.
    const gave = (result: typeof clean.result) =>
      result.items.map((i) => ({ terminal: i.terminal, outcome: i.outcome, data: i.data }));
    const whole = gave(clean.result);
    const crashes = [
      ...Array.from({ length: 30 }, (_, i) => ({ kind: 'freeze', commits: i + 1 }) as const),
      ...Array.from({ length: 60 }, (_, i) => ({ kind: 'abort', event: i + 1 }) as const),
    ];
    const problems: string[] = [];
    for (const crash of crashes) {
      const attempts = await runThroughCrashes(createMemoryStore(), run, [crash], (p, s) =>
        scenarioDispatcher(p, newLog(), s),
      );
      if (attempts.processes === 1) continue;
      const got = gave(attempts.result);
      if (JSON.stringify(got) !== JSON.stringify(whole)) {
        problems.push(`${JSON.stringify(crash)}: ${JSON.stringify(got)} vs ${JSON.stringify(whole)}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
