/**
 * The await corpus (see `await-corpus.ts`) through the three executors: each case's answer script given as
 * its items park (by the in-process dispatchers in a microtask after `await.parked`, by the distributed one
 * as its follower hears it), the in-memory run the reference the durable (SQLite) and distributed (a worker
 * on the test Redis) runs must match in normal form, and all three held to the oracle (`await-oracle.ts`):
 * where each item ends and how each wait ends. Every executor runs a case with the same run id, so the
 * tokens are the same; the workers run on real time with a short await deadline, so the deadline's wall time
 * and how long a wait took are left out. Every Redis key is removed.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeScratchKeys } from '../store/redis-scratch.ts';
import {
  AWAIT_CASES,
  AWAIT_NODES,
  type AwaitCase,
  DISTRIBUTED_AWAIT_DEADLINE_MS,
  withAwaitDeadline,
} from './await-corpus.ts';
import { expectedOf, observedOf } from './await-oracle.ts';
import { caseProblems, outline } from './corpus.ts';
import { DistributedExecutor, type Executed, runDurable, runInMemory } from './executors.ts';
import { differences, type Normal, normalise } from './normalise.ts';

let folder = '';
let distributed: DistributedExecutor | undefined;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'switchyard-await-diff-'));
  distributed = await DistributedExecutor.start(AWAIT_NODES);
});
afterAll(async () => {
  if (folder !== '') rmSync(folder, { recursive: true, force: true });
  await distributed?.close();
  await removeScratchKeys();
});

/** Each case's run id, the same for every executor (and fresh for each run of the suite). */
const tag = randomUUID();
const runIdOf = (c: AwaitCase) => ({ runId: `await-diff-${c.seed}-${tag}` });

/**
 * The normal form of an await run, without an await's wall-time deadline and how long it waited: the
 * workers run on real time with a deadline of their own, the in-process executors on a virtual clock.
 */
function awaitNormal(run: Executed): Normal {
  const normal = normalise(run);
  const events = normal.events
    .map((text) => {
      const event = JSON.parse(text) as Record<string, unknown>;
      if (typeof event.type !== 'string' || !event.type.startsWith('await.')) return text;
      const { deadlineAt: _deadline, waitedMs: _waited, ...rest } = event;
      return JSON.stringify(rest);
    })
    .sort();
  return { ...normal, events };
}

const memory = new Map<number, Promise<Executed>>();
function reference(c: AwaitCase): Promise<Executed> {
  let run = memory.get(c.seed);
  if (run === undefined) {
    run = runInMemory(c, runIdOf(c));
    memory.set(c.seed, run);
  }
  return run;
}

function held(c: AwaitCase, run: Executed, executor: string): void {
  expect(run.refused ?? [], `${executor}: answers refused`).toEqual([]);
  const expected = expectedOf(c);
  expect(
    observedOf(run.result, run.events, expected),
    `${c.name}, ${executor}, against the oracle\n${outline(c)}`,
  ).toEqual(expected);
}

describe('the await corpus', () => {
  it('has documents the project validator accepts, and scripts the oracle can walk', async () => {
    for (const c of AWAIT_CASES) {
      expect(await caseProblems(c), c.name).toEqual([]);
      const { waits } = expectedOf(c);
      expect(
        waits.some((w) => w.endsWith(' deadline')),
        `${c.name}: a wait left to its deadline`,
      ).toBe(true);
    }
  });
});

describe('every executor ends each await case as the oracle says, and alike', () => {
  for (const c of AWAIT_CASES) {
    it(`${c.name}: in memory`, { timeout: 60_000 }, async () => {
      held(c, await reference(c), 'in memory');
    });
    it(`${c.name}: durable`, { timeout: 60_000 }, async () => {
      const durable = await runDurable(c, folder, runIdOf(c));
      held(c, durable, 'durable');
      expect(differences(awaitNormal(await reference(c)), awaitNormal(durable)), c.name).toEqual([]);
    });
    it(`${c.name}: distributed`, { timeout: 60_000 }, async () => {
      const workers = distributed as DistributedExecutor;
      const run = await workers.run(withAwaitDeadline(c, DISTRIBUTED_AWAIT_DEADLINE_MS), runIdOf(c));
      held(c, run, 'distributed');
      expect(differences(awaitNormal(await reference(c)), awaitNormal(run)), c.name).toEqual([]);
    });
  }
});
