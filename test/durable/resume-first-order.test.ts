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
