/**
 * The differential suite: a seeded corpus of generated documents (see `generate.ts`), each run through the
 * three executors (in memory, durable over SQLite, distributed over BullMQ on the test Redis) with the same
 * nodes, items and policy, must give the same normal form (see `normalise.ts`); the gathers the oracle knows
 * must give what the reducers promise, in every executor (see `oracle.ts`); and both dispatchers must refuse
 * the same bad options alike, with the same code and message (see `bad-options.ts`). Tests of known
 * drift are expected to fail until the drift is fixed; a fixed one then fails as "passed unexpectedly":
 * remove its line from KNOWN_DRIFT.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeScratchKeys } from '../store/redis-scratch.ts';
import { distributedVerdict, localVerdict, OPTION_NODES, OPTION_ROWS } from './bad-options.ts';
import { caseProblems, type DiffCase, generateCase, outline } from './corpus.ts';
import { DistributedExecutor, runDurable, runInMemory } from './executors.ts';
import { differences, type Normal, normalise } from './normalise.ts';
import { checkedGathers, checkedTies, oracleProblems } from './oracle.ts';

/**
 * The corpus: one generated case per seed, seeds 1–60; `DIFF_SEEDS=<first>-<last>` runs another range (a
 * wider sweep looking for drift; the coverage minimums hold for ranges of 60 or more).
 */
const SEEDS = seedRange(process.env.DIFF_SEEDS ?? '1-60');

function seedRange(text: string): number[] {
  const match = /^(\d+)-(\d+)$/u.exec(text);
  if (match === null) throw new Error(`DIFF_SEEDS is '${text}'; write a range such as 61-300`);
  const first = Number(match[1]);
  return Array.from({ length: Number(match[2]) - first + 1 }, (_, i) => first + i);
}

/**
 * Tests expected to fail, each with the bug it shows: drift between the executors, or a bug all of them
 * share that the oracle sees. Empty while every executor agrees; a bug found later is named here, one line
 * each, until its fix lands.
 */
const KNOWN_DRIFT: Readonly<Record<string, string>> = {};

const cases: readonly DiffCase[] = SEEDS.map(generateCase);
let distributed: DistributedExecutor | undefined;
let folder = '';

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'switchyard-differential-'));
  distributed = await DistributedExecutor.start([...cases.flatMap((c) => c.nodes), ...OPTION_NODES]);
});

afterAll(async () => {
  await distributed?.close();
  await removeScratchKeys();
  if (folder !== '') rmSync(folder, { recursive: true, force: true });
});

/** A test, expected to fail while KNOWN_DRIFT names it. */
function gated(name: string, timeout: number, fn: () => Promise<void>): void {
  const drift = KNOWN_DRIFT[name];
  if (drift === undefined) it(name, { timeout }, fn);
  else it.fails(`${name} (known drift: ${drift})`, { timeout }, fn);
}

const memory = new Map<number, Promise<Normal>>();
/** The in-memory run of a case, the reference the other executors are held to; run once per case. */
function reference(c: DiffCase): Promise<Normal> {
  let run = memory.get(c.seed);
  if (run === undefined) {
    run = runInMemory(c).then(normalise);
    memory.set(c.seed, run);
  }
  return run;
}

/** Which features the corpus has, in how many cases. */
function coverage(): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (name: string, n = 1) => counts.set(name, (counts.get(name) ?? 0) + n);
  for (const c of cases) {
    for (const name of c.features.keys()) add(name);
    if (checkedGathers(c).length > 0) add('gathers the oracle checks');
    const ties = checkedTies(c);
    if (ties > 0) add('quorum ties the oracle checks');
  }
  return counts;
}

describe('the differential corpus', () => {
  it('has at least 50 cases, every document of which the project validator accepts', async () => {
    expect(cases.length).toBeGreaterThanOrEqual(50);
    const problems = (
      await Promise.all(cases.map(async (c) => (await caseProblems(c)).map((p) => `seed ${c.seed}: ${p}`)))
    ).flat();
    expect(problems).toEqual([]);
  });

  it('covers every shape issue 21 names', () => {
    const counts = coverage();
    console.log(
      [...counts]
        .sort()
        .map(([name, n]) => `${String(n).padStart(3)}  ${name}`)
        .join('\n'),
    );
    const least: Record<string, number> = {
      'nested embed': 5,
      'scatter over a node': 10,
      'scatter over a sub-DAG': 10,
      'retry re-enters a scatter': 10,
      'retry re-enters an embed': 5,
      'retry re-enters an embed whose document fans out again': 3,
      'gather first': 5,
      'gather quorum': 5,
      'require all': 5,
      'require quorum': 5,
      'quorum ties the oracle checks': 3,
      'pre phase': 3,
      'post phase': 3,
      'placement deadline': 5,
      'node hangs past its placement deadline': 3,
      'wait longer than the run deadline leaves': 2,
      'unrouted output': 5,
      'throws HTTP 400': 5,
      'Retry-After hint': 10,
      'succeeds on the Nth try': 20,
      'journalled step': 10,
    };
    const short = Object.entries(least).filter(([name, n]) => (counts.get(name) ?? 0) < n);
    expect(short.map(([name, n]) => `${name}: ${counts.get(name) ?? 0} of ${n}`)).toEqual([]);
  });

  it('tells runs apart: the normal form keeps budgets, journal values, gathered values and events', async () => {
    const c = cases.find(
      (k) => k.features.has('journalled step') && checkedGathers(k).length > 0,
    ) as DiffCase;
    const run = await reference(c);
    const item = run.items[0] ?? run.failures[0];
    expect(item).toBeDefined();
    const changed = structuredClone(run);
    const first = (changed.items[0] ?? changed.failures[0]) as (typeof changed.items)[number];
    first.state.budgets.extra = 1;
    first.data.gathered = ['other'];
    changed.events.pop();
    expect(differences(run, changed).length).toBeGreaterThanOrEqual(3);
  });

  it('KNOWN_DRIFT names only tests of this suite', () => {
    const names = new Set([
      ...cases.flatMap((c) => ['durable', 'distributed', 'oracle'].map((e) => `seed ${c.seed} ${e}`)),
      ...OPTION_ROWS.map((row) => `option: ${row.name}`),
    ]);
    expect(Object.keys(KNOWN_DRIFT).filter((name) => !names.has(name))).toEqual([]);
  });
});

describe('every executor ends each case as the in-memory dispatcher does', () => {
  for (const c of cases) {
    gated(`seed ${c.seed} durable`, 60_000, async () => {
      const expected = await reference(c);
      const actual = normalise(await runDurable(c, folder));
      expect(
        differences(expected, actual),
        `seed ${c.seed}, durable against in memory\n${outline(c)}`,
      ).toEqual([]);
      // Held to the oracle too: a reduction all three executors share is wrong in each of them alike.
      expect(oracleProblems(c, actual), `seed ${c.seed}, durable\n${outline(c)}`).toEqual([]);
    });
    gated(`seed ${c.seed} distributed`, 60_000, async () => {
      const expected = await reference(c);
      const actual = normalise(await (distributed as DistributedExecutor).run(c));
      expect(
        differences(expected, actual),
        `seed ${c.seed}, distributed against in memory\n${outline(c)}`,
      ).toEqual([]);
      // Held to the oracle too: a reduction all three executors share is wrong in each of them alike.
      expect(oracleProblems(c, actual), `seed ${c.seed}, distributed\n${outline(c)}`).toEqual([]);
    });
    gated(`seed ${c.seed} oracle`, 60_000, async () => {
      expect(oracleProblems(c, await reference(c)), `seed ${c.seed}\n${outline(c)}`).toEqual([]);
    });
  }
});

describe('both dispatchers refuse the same bad options alike', () => {
  for (const row of OPTION_ROWS) {
    gated(`option: ${row.name}`, 60_000, async () => {
      const local = await localVerdict(row);
      const remote = await distributedVerdict(row, (distributed as DistributedExecutor).prefix);
      if (row.localOnly === true && 'refused' in local && 'refused' in remote) {
        expect({ createDistributedDispatcher: remote.refused }).toEqual({
          createDistributedDispatcher: local.refused,
        });
        expect(remote.message).toMatch(/^a distributed run has no option /u);
        return;
      }
      expect({ createDistributedDispatcher: remote }).toEqual({ createDistributedDispatcher: local });
      if ('refused' in local) expect(local.refused, 'a refusal carries a stable code').toMatch(/^E_[A-Z_]+$/);
    });
  }
});
