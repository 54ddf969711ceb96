/**
 * What item data may hold, held to alike by the three executors (in memory, durable over SQLite,
 * distributed over BullMQ): input items JSON cannot hold are refused with the same code and message; input
 * JSON normalises (undefined properties, -0, shared objects, null prototypes) reaches nodes as the same
 * values; a node that writes a value JSON cannot hold fails at its placement with E_ITEM_DATA and the item
 * goes on along the error route with the same data; a journalled step gives back the same value.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSwitchyardError } from '../../src/errors.ts';
import { removeScratchKeys } from '../store/redis-scratch.ts';
import { DistributedExecutor, type Executed, runDurable, runInMemory } from './executors.ts';
import { DATA_NODES, dataCase, HELD, REFUSED } from './item-data.ts';
import { differences, normalise } from './normalise.ts';

let distributed: DistributedExecutor | undefined;
let folder = '';
let seed = 10_000;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'switchyard-item-data-'));
  distributed = await DistributedExecutor.start(DATA_NODES);
});

afterAll(async () => {
  await distributed?.close();
  await removeScratchKeys();
  if (folder !== '') rmSync(folder, { recursive: true, force: true });
});

type Verdict = { readonly refused: { code: string; message: string } } | { readonly ran: Executed };

async function verdict(run: Promise<Executed>): Promise<Verdict> {
  try {
    return { ran: await run };
  } catch (error) {
    if (!isSwitchyardError(error)) throw error;
    return { refused: { code: error.code, message: error.message } };
  }
}

/** The verdicts of the three executors on the same items. */
async function threeWays(items: readonly Record<string, unknown>[]) {
  const c = dataCase(seed++, items);
  const executor = distributed as DistributedExecutor;
  return {
    memory: await verdict(runInMemory(c)),
    durable: await verdict(runDurable(c, folder)),
    distributed: await verdict(executor.run(c)),
  };
}

function expectAlike(verdicts: Awaited<ReturnType<typeof threeWays>>) {
  const { memory } = verdicts;
  for (const name of ['durable', 'distributed'] as const) {
    const other = verdicts[name];
    if ('refused' in memory || 'refused' in other) {
      expect({ [name]: other }).toEqual({ [name]: memory });
      continue;
    }
    expect(differences(normalise(memory.ran), normalise(other.ran)), `${name} against in memory`).toEqual([]);
  }
}

describe('input items are admitted alike by every executor', () => {
  for (const [name, make] of Object.entries(REFUSED)) {
    it(`refuses an input item holding ${name}, naming the item and where`, async () => {
      const verdicts = await threeWays([{ fine: 1 }, { deep: { value: make() } }]);
      expectAlike(verdicts);
      expect(verdicts.memory).toMatchObject({
        refused: {
          code: 'E_ITEM_DATA',
          message: expect.stringMatching(/^items\[1\] holds .* at \/deep\/value/u),
        },
      });
    });
  }

  it('hands nodes what JSON holds, normalised the same way', async () => {
    const items = Object.entries(HELD).map(([name, make]) => ({ name, value: make() }));
    const verdicts = await threeWays(items);
    expectAlike(verdicts);
    const { memory } = verdicts;
    if ('refused' in memory) throw new Error(memory.refused.message);
    const data = memory.ran.result.items.map((i) => i.data);
    expect(data.map((d) => d.name)).toEqual(Object.keys(HELD));
    const byName = new Map(data.map((d) => [d.name, d.value as Record<string, unknown>]));
    expect(byName.get('undefined')).toEqual({ b: 1 });
    expect(Object.keys(byName.get('undefined') ?? {})).toEqual(['b']);
    expect(Object.is((byName.get('minus zero') as { z: number }).z, 0)).toBe(true);
    expect(Object.hasOwn(byName.get('__proto__ key') ?? {}, '__proto__')).toBe(true);
    const shared = byName.get('shared') as { a: object; b: object };
    expect(shared.a).toEqual(shared.b);
    expect(shared.a).not.toBe(shared.b);
    expect(Object.getPrototypeOf(byName.get('null prototype'))).toBe(Object.prototype);
  });
});

describe('data a node writes obeys the contract alike in every executor', () => {
  it('values JSON cannot hold fail the placement with E_ITEM_DATA and go on along its error route', async () => {
    const names = Object.keys(REFUSED);
    const verdicts = await threeWays(names.map((write) => ({ write })));
    expectAlike(verdicts);
    const { memory } = verdicts;
    if ('refused' in memory) throw new Error(memory.refused.message);
    const items = memory.ran.result.items;
    expect(items.map((i) => i.terminal)).toEqual(names.map(() => 'salvaged'));
    expect(items.map((i) => i.data.out).slice(0, 8)).toMatchObject([
      '10',
      '1970-01-01T00:00:00.000Z',
      null,
      null,
      { 1: 'one' },
      [1],
      { x: 1 },
      { a: 1, self: { back: '[Circular]' } },
    ]);
    const errors = memory.ran.events.filter((e) => e.type === 'placement.end' && e.error !== undefined);
    expect(errors.map((e) => (e as { error?: { code: string } }).error?.code)).toEqual(
      names.map(() => 'E_ITEM_DATA'),
    );
  });

  it('values JSON normalises reach the next node normalised', async () => {
    const verdicts = await threeWays(Object.keys(HELD).map((write) => ({ write })));
    expectAlike(verdicts);
    const { memory } = verdicts;
    if ('refused' in memory) throw new Error(memory.refused.message);
    expect(memory.ran.result.items.map((i) => i.terminal)).toEqual(Object.keys(HELD).map(() => 'done'));
    for (const item of memory.ran.result.items) {
      const [first, second] = item.data.seen as string[];
      expect(first, `what ${String(item.data.write)} reached the next node as`).toBe(second);
    }
  });

  it('journalled steps give back the same values, and a step value put in the data is checked too', async () => {
    const names = ['bigint', 'date', 'map', 'undefined', 'minus zero', 'shared'];
    const items = names.flatMap((name) => [{ write: `step:${name}` }, { write: `step-kind:${name}` }]);
    const verdicts = await threeWays(items);
    expectAlike(verdicts);
    const { memory } = verdicts;
    if ('refused' in memory) throw new Error(memory.refused.message);
    const terminals = memory.ran.result.items.map((i) => `${String(i.data.write)} ${i.terminal}`);
    expect(terminals).toEqual([
      'step:bigint salvaged',
      'step-kind:bigint done',
      'step:date salvaged',
      'step-kind:date done',
      'step:map salvaged',
      'step-kind:map done',
      'step:undefined done',
      'step-kind:undefined done',
      'step:minus zero done',
      'step-kind:minus zero done',
      'step:shared done',
      'step-kind:shared done',
    ]);
  });
});
