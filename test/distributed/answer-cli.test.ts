/**
 * `switchyard answer --redis` and `runs show --redis` for runs `switchyard worker`s carry: a run submitted
 * with `run --redis` parks on a worker, `runs show` lists its parked items (scatter children, which have no
 * checkpoint, too) with the commands that answer them, `answer` gives each answer through the workers (the
 * refusals one line, exit 1; misplaced flags exit 2), and the run ends on the answered routes; a run of the
 * Redis run store no workers carry has the answer recorded in the store. The CLI runs
 * in process; the worker too, on the test Redis under a scratch prefix ($SWITCHYARD_REDIS_PREFIX), every
 * key removed.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DistributedWorker, startWorker } from '../../src/distributed/worker.ts';
import { loadDagFile } from '../../src/document/load.ts';
import type { Dag } from '../../src/document/model.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { openRedisStore, type RedisRunStore } from '../../src/store/redis.ts';
import { nodes } from '../cli/fixtures/review-nodes.ts';
import { runCli } from '../cli/run-cli.ts';
import { removeScratchKeys, scratchPrefix, TEST_REDIS } from '../store/redis-scratch.ts';
import { waitFor } from '../wait-for.ts';

const FIXTURES = fileURLToPath(new URL('./fixtures/answer-cli/', import.meta.url));
const QUEUE = 'answer-cli';
const prefix = scratchPrefix();
const before = process.env.SWITCHYARD_REDIS_PREFIX;

let worker: DistributedWorker;
let store: RedisRunStore;

beforeAll(async () => {
  process.env.SWITCHYARD_REDIS_PREFIX = prefix;
  store = await openRedisStore(TEST_REDIS, { prefix });
  worker = await startWorker({
    connection: TEST_REDIS,
    nodes,
    store,
    prefix: `${prefix}dist`,
    queue: QUEUE,
  });
});

afterAll(async () => {
  await worker?.close();
  await store?.close();
  if (before === undefined) delete process.env.SWITCHYARD_REDIS_PREFIX;
  else process.env.SWITCHYARD_REDIS_PREFIX = before;
  await removeScratchKeys();
});

interface ParkedJson {
  readonly item: string;
  readonly token: string;
  readonly answers: string[];
  readonly command: string;
}

/** Submits `dag` (a file of the fixtures) to the worker with `input`; the run id. */
async function submit(dag: string, input: unknown): Promise<string> {
  const { code, out, err } = await runCli([
    'run',
    `${FIXTURES}${dag}`,
    '--redis',
    TEST_REDIS,
    '--queue',
    QUEUE,
    '--input',
    JSON.stringify(input),
  ]);
  expect({ code, err }).toEqual({ code: 0, err: '' });
  return /submitted run (\S+)/u.exec(out)?.[1] ?? '';
}

/** `runs show <id> --redis --json` once `count` items are parked: the parked items, by item. */
async function parkedOf(runId: string, count: number): Promise<Map<string, ParkedJson>> {
  const parked = await waitFor(
    async () => {
      const shown = await runCli(['runs', 'show', runId, '--redis', TEST_REDIS, '--json']);
      const list = (JSON.parse(shown.out) as { parked: ParkedJson[] }).parked;
      return list.length === count ? list : undefined;
    },
    { what: `${count} items of run ${runId} to park` },
  );
  return new Map(parked.map((p) => [p.item, p]));
}

function answer(runId: string, token: string, output: string, ...more: string[]) {
  return runCli(['answer', runId, token, output, '--redis', TEST_REDIS, '--queue', QUEUE, ...more]);
}

/** Where each input item of the run ended, once the run ended. */
async function endings(runId: string): Promise<string[]> {
  await waitFor(
    async () => {
      const run = await store.getRun(runId);
      return run !== undefined && run.status !== 'running' && run.status !== 'waiting';
    },
    { what: `run ${runId} to end` },
  );
  const checkpoints = await store.listCheckpoints(runId);
  return checkpoints.map((c) => {
    const ending = c.ending;
    return `${c.itemId} ${ending?.kind === 'terminal' ? ending.placement : ending?.kind}`;
  });
}

describe('switchyard answer --redis', () => {
  it('answers items parked on the workers, refuses what a local answer refuses, and the run goes on', {
    timeout: 60_000,
  }, async () => {
    const runId = await submit('review.jsonld', [{ n: 1 }, { n: 2 }]);
    const parked = await parkedOf(runId, 2);
    const first = parked.get('1') as ParkedJson;
    const second = parked.get('2') as ParkedJson;
    expect(first.answers).toEqual(['approved', 'rejected']);
    expect(first.command).toBe(
      `switchyard answer ${runId} ${first.token} <approved|rejected> --redis ${TEST_REDIS}`,
    );

    const unexpected = await answer(runId, first.token, 'maybe');
    expect(unexpected.code).toBe(1);
    expect(unexpected.err.trim().split('\n')).toEqual([
      expect.stringMatching(/approved.*rejected.*E_ANSWER/u),
    ]);
    const misplaced = await answer(runId, first.token, 'approved', '--store', 'runs.db');
    expect(misplaced.code).toBe(2);
    expect(misplaced.err).toMatch(/--store and --redis name two stores.*E_USAGE/u);

    const given = await answer(runId, first.token, 'approved', '--data', '{"by":"ed"}');
    expect(given).toEqual({
      code: 0,
      out: `answered item 1 at 'review' with 'approved'; the workers take it\n`,
      err: '',
    });
    const again = await answer(runId, first.token, 'rejected');
    expect(again.code).toBe(1);
    expect(again.err.trim().split('\n')).toEqual([expect.stringMatching(/E_ALREADY_ANSWERED\)$/u)]);

    expect((await answer(runId, second.token, 'rejected')).out).toBe(
      `answered item 2 at 'review' with 'rejected'; the workers take it\n`,
    );
    expect((await endings(runId)).sort()).toEqual(['1 publish', '2 drop']);
    const run = await store.listCheckpoints(runId);
    expect(run.find((c) => c.itemId === '1')?.state.data).toMatchObject({ review: { by: 'ed' } });
  });

  it("lists a scatter's parked children from the workers' hash, and answers them", {
    timeout: 60_000,
  }, async () => {
    const runId = await submit('fan.jsonld', [{ drafts: [{}, {}] }]);
    const parked = await parkedOf(runId, 2);
    expect([...parked.keys()].sort()).toEqual(['1.0', '1.1']);
    const shown = await runCli(['runs', 'show', runId, '--redis', TEST_REDIS]);
    for (const p of parked.values()) {
      expect(shown.out).toContain(
        `switchyard answer ${runId} ${p.token} <approved|rejected> --redis ${TEST_REDIS}`,
      );
    }
    const taken = await answer(runId, (parked.get('1.0') as ParkedJson).token, 'approved');
    expect(taken.out).toBe(`answered item 1.0 at 'review' with 'approved'; the workers take it\n`);
    await answer(runId, (parked.get('1.1') as ParkedJson).token, 'rejected');
    expect(await endings(runId)).toEqual(['1 ok']);
  });

  it('records the answer in the Redis run store for a run no workers carry', {
    timeout: 30_000,
  }, async () => {
    const { dag } = await loadDagFile(`${FIXTURES}review.jsonld`);
    const local = createDispatcher({
      nodes,
      store,
      policy: { placements: { review: { deadlineMs: 3_600_000 } } },
    });
    const result = await local.run(dag as Dag, {}, { items: [{ n: 1 }], whenParked: 'stop' });
    expect(result.status).toBe('waiting');
    const token = result.parked?.[0]?.token as string;
    const { code, out } = await answer(result.runId, token, 'approved');
    expect({ code, out }).toEqual({
      code: 0,
      out: `answered item 1 at 'review' with 'approved'; recorded: run ${result.runId} takes it when the process that runs it goes on\n`,
    });
    expect((await store.listAnswers(result.runId)).map((a) => a.output)).toEqual(['approved']);
  });

  it('refuses a run the Redis run store does not hold with one line', async () => {
    const { code, err } = await answer('no-such-run', 'aw-000000000000000000000000', 'approved');
    expect(code).toBe(1);
    expect(err.trim().split('\n')).toEqual([expect.stringMatching(/no-such-run/u)]);
  });
});
