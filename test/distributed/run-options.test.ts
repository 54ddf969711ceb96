/**
 * The local and the distributed dispatcher admit and refuse the same run options, with the same code and
 * line: both check them with one function before anything happens. A refused distributed run writes no
 * key. Real Redis (127.0.0.1:6379, or SWITCHYARD_TEST_REDIS); every key is removed.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDistributedDispatcher, type DistributedDispatcher } from '../../src/distributed/dispatcher.ts';
import { startWorker } from '../../src/distributed/worker.ts';
import { dag as build } from '../../src/document/builder.ts';
import { createDispatcher, type RunOptions } from '../../src/runtime/dispatcher.ts';
import { defineNode, type NodeDefinition } from '../../src/runtime/node.ts';
import { removeScratchKeys, scratchPrefix, TEST_REDIS } from '../store/redis-scratch.ts';

const touch = defineNode({ id: 'urn:test:touch', outputs: ['ok'], run: () => 'ok' });
const nodes = [touch] as unknown as NodeDefinition<string, never>[];
const dag = build('urn:test:options', { name: 'options', version: '1' })
  .entry('start')
  .entry('other')
  .task('start', 'urn:test:touch')
  .route('ok', 'done')
  .task('other', 'urn:test:touch')
  .route('ok', 'done')
  .terminal('done', 'completed')
  .build();

/**
 * A bad run: its input and options, as a caller in plain JavaScript may pass them. `named`: refused for an
 * option's name (unknown, or one only a local run has), whose line lists each dispatcher's own options;
 * every other refusal is the same line from both.
 */
interface Bad {
  readonly name: string;
  readonly input?: unknown;
  readonly options: unknown;
  readonly named?: true;
}

const BAD: readonly Bad[] = [
  ...[0, -5, Number.NaN, Number.POSITIVE_INFINITY, '100', null, true].map((deadlineMs) => ({
    name: `deadlineMs ${String(deadlineMs)}`,
    options: { deadlineMs },
  })),
  ...['nope', '', 5].map((entrypoint) => ({
    name: `entrypoint ${String(entrypoint)}`,
    options: { entrypoint },
  })),
  ...['x', {}, [null], [5], [[1]], [{}, 'b']].map((items) => ({
    name: `items ${JSON.stringify(items)}`,
    options: { items },
  })),
  ...[null, 5, 'text', [1]].map((input) => ({ name: `input ${JSON.stringify(input)}`, input, options: {} })),
  ...['', 5, 'a{b}', 'x'.repeat(201), 'a\nb'].map((runId) => ({
    name: `runId ${JSON.stringify(runId).slice(0, 20)}`,
    options: { runId },
  })),
  { name: 'onEvent that is not a function', options: { onEvent: 'log' } },
  { name: 'an unknown option (a typo)', options: { deadline: 5000 }, named: true },
  { name: 'concurrency, which is a policy setting', options: { concurrency: 2 }, named: true },
  { name: 'seed, which is a dispatcher setting', options: { seed: 1 }, named: true },
  { name: 'options that are not an object', options: 'fast' },
  { name: 'options that are null', options: null },
  { name: 'a signal that is not an AbortSignal', options: { signal: 'stop' }, named: true },
  { name: 'a store that is not a run store', options: { store: 'runs.db' }, named: true },
  { name: 'items and resume together', options: { items: [{}], resume: [] }, named: true },
];

const prefix = scratchPrefix();
let distributed: DistributedDispatcher;
const local = createDispatcher({ nodes });

beforeAll(async () => {
  distributed = await createDistributedDispatcher({ connection: TEST_REDIS, nodes, prefix });
});

afterAll(async () => {
  await distributed?.close();
  await removeScratchKeys();
});

/**
 * What a start gives: the refusal's code and line, or `admitted`. A refusal comes before anything is
 * submitted; a run that was admitted instead and is followed with no worker never ends, so the answer is
 * bounded (a bound on a hang, not a timing threshold: a refusal answers at once).
 */
async function outcome(start: () => PromiseLike<unknown>): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve('admitted, and still running after 10 s'), 10_000);
  });
  try {
    return await Promise.race([Promise.resolve(start()).then(() => 'admitted'), bound]);
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    return { code, message };
  } finally {
    clearTimeout(timer);
  }
}

describe('both dispatchers admit and refuse the same run options', () => {
  for (const bad of BAD) {
    it(`${bad.name}: E_INPUT from both${bad.named ? '' : ', the same line'}`, async () => {
      const input = ('input' in bad ? bad.input : {}) as Record<string, unknown>;
      const options = bad.options as RunOptions;
      const here = await outcome(() => local.run(dag, input, options));
      expect(here).toMatchObject({ code: 'E_INPUT' });
      const same = (bad.named ? { code: 'E_INPUT' } : here) as object;
      expect(await outcome(() => distributed.run(dag, input, options))).toMatchObject(same);
      expect(await outcome(() => distributed.submit(dag, input, options))).toMatchObject(same);
    });
  }

  it('a refused distributed run writes no key', async () => {
    const redis = new Redis(TEST_REDIS);
    try {
      for (const bad of BAD) {
        const input = ('input' in bad ? bad.input : {}) as Record<string, unknown>;
        await outcome(() => distributed.submit(dag, input, bad.options as RunOptions));
      }
      // The queue's own meta key is written when the dispatcher opens the queue; nothing else may be.
      const keys = await redis.keys(`${prefix}*`);
      expect(keys.filter((key) => !key.endsWith(':meta'))).toEqual([]);
    } finally {
      await redis.quit();
    }
  });

  it('a local run option a distributed run cannot carry out is refused by name', async () => {
    const signal = new AbortController().signal;
    for (const [name, value] of Object.entries({ signal, store: false, files: {}, resume: [] })) {
      const refused = await outcome(() => distributed.run(dag, {}, { [name]: value } as RunOptions));
      expect(refused).toMatchObject({ code: 'E_INPUT', message: expect.stringContaining(name) });
    }
  });

  it('good options are admitted by both, and give the same run', { timeout: 30_000 }, async () => {
    const worker = await startWorker({ connection: TEST_REDIS, nodes, prefix, concurrency: 2 });
    try {
      // `store: undefined` as plain JavaScript passes it: an option left undefined is as good as absent.
      const options = (runId: string) =>
        ({
          deadlineMs: 60_000,
          entrypoint: 'other',
          items: [{ a: 1 }, { b: [2] }],
          runId,
          onEvent: () => undefined,
          store: undefined,
        }) as unknown as RunOptions;
      const here = await local.run(dag, {}, options('good-local'));
      const there = await distributed.run(dag, {}, options('good-distributed'));
      const shape = (r: typeof here) => r.items.map((i) => [i.id, i.terminal, i.data, i.state.trail]);
      expect(here.status).toBe('completed');
      expect(shape(there)).toEqual(shape(here));
      expect(there.runId).toBe('good-distributed');
    } finally {
      await worker.close();
    }
  });
});
