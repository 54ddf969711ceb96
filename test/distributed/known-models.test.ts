/**
 * A worker loads, compiles and prepares the documents and policy of a run once for every run that shares
 * them, keeps the most recently used, and tries again after a load that failed; the runs it reads are kept
 * the same way (see `KeptLoads`), so a worker holds what its current runs need, not every run it carried.
 */
import { describe, expect, it } from 'vitest';
import { KeptLoads } from '../../src/distributed/kept-loads.ts';
import { KnownModelsCache } from '../../src/distributed/known-models.ts';
import { type RunSpec, specOf } from '../../src/distributed/run-spec.ts';
import { dag } from '../../src/document/builder.ts';
import { resolvePolicy } from '../../src/policy/resolve.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import { createRegistry, defineNode } from '../../src/runtime/node.ts';

const registry = createRegistry([defineNode({ id: 'urn:test:work', outputs: ['ok'], run: () => 'ok' })]);

function docNamed(iri: string) {
  return dag(iri, { name: 'known', version: '1' })
    .entry('work')
    .task('work', 'urn:test:work')
    .route('ok', 'done')
    .terminal('done', 'completed')
    .build();
}

/** The spec a worker reads back for a run of `iri` under `policy`, `items` items. */
function specFor(iri: string, policy: PolicyInput = {}, items = 1): RunSpec {
  return JSON.parse(JSON.stringify(specOf(docNamed(iri), [], resolvePolicy(policy), undefined, items)));
}

describe('the models a worker keeps', () => {
  it('loads the documents and policy of runs that share them once, whatever the runs themselves differ in', async () => {
    const cache = new KnownModelsCache(registry);
    const first = await cache.of(specFor('urn:test:a', {}, 1), 'run-1');
    const second = await cache.of(specFor('urn:test:a', {}, 7), 'run-2');
    expect(second).toBe(first);
    expect(second.admissions.root(second.models.dag)).toBe(first.admissions.root(first.models.dag));
  });

  it('loads another document or another policy on its own', async () => {
    const cache = new KnownModelsCache(registry);
    const base = await cache.of(specFor('urn:test:a'), 'run-1');
    const otherDoc = await cache.of(specFor('urn:test:b'), 'run-2');
    const otherPolicy = await cache.of(specFor('urn:test:a', { defaults: { jitter: 'none' } }), 'run-3');
    expect(otherDoc).not.toBe(base);
    expect(otherDoc.models.dag.id).toBe('urn:test:b');
    expect(otherPolicy).not.toBe(base);
    expect(otherPolicy.models.policy.defaults.jitter).toBe('none');
    expect(base.models.policy.defaults.jitter).not.toBe('none');
  });

  it('does not keep a load that failed, so the next run tries again', async () => {
    const cache = new KnownModelsCache(registry);
    const broken = { ...specFor('urn:test:a'), dag: { '@context': 'urn:none', name: 42 } };
    const one = cache.of(broken, 'run-1');
    await expect(one).rejects.toMatchObject({ code: 'E_INPUT' });
    const two = cache.of(broken, 'run-2');
    expect(two).not.toBe(one);
    await expect(two).rejects.toThrow(/run 'run-2'/);
  });

  it('tells each run whose documents do not load of its own run, when the runs load them at once', async () => {
    const cache = new KnownModelsCache(registry);
    const broken = { ...specFor('urn:test:a'), dag: { '@context': 'urn:none', name: 42 } };
    const [one, two] = await Promise.allSettled([cache.of(broken, 'run-1'), cache.of(broken, 'run-2')]);
    expect(one).toMatchObject({
      status: 'rejected',
      reason: { message: expect.stringMatching(/run 'run-1'/) },
    });
    expect(two).toMatchObject({
      status: 'rejected',
      reason: { message: expect.stringMatching(/run 'run-2'/) },
    });
  });

  it('keeps the 32 most recently used and lets the least recently used go', async () => {
    const cache = new KnownModelsCache(registry);
    const kept: Awaited<ReturnType<KnownModelsCache['of']>>[] = [];
    for (let i = 0; i < 32; i += 1) kept.push(await cache.of(specFor(`urn:test:${i}`), 'run'));
    // Used again, the first is the most recent, so the second is the least recent when a 33rd comes.
    expect(await cache.of(specFor('urn:test:0'), 'run')).toBe(kept[0]);
    await cache.of(specFor('urn:test:32'), 'run');
    expect(await cache.of(specFor('urn:test:0'), 'run')).toBe(kept[0]);
    expect(await cache.of(specFor('urn:test:2'), 'run')).toBe(kept[2]);
    const reloaded = await cache.of(specFor('urn:test:1'), 'run');
    expect(reloaded).not.toBe(kept[1]);
    expect(reloaded.models.dag.id).toBe('urn:test:1');
  });
});

describe('loads kept by key', () => {
  it('holds at most as many as it was given, loading each key once while it is kept', async () => {
    const loads: string[] = [];
    const kept = new KeptLoads<string>(3);
    const of = (key: string) =>
      kept.of(key, async () => {
        loads.push(key);
        return key.toUpperCase();
      });
    for (const key of ['a', 'b', 'c', 'a', 'd', 'a', 'b']) expect(await of(key)).toBe(key.toUpperCase());
    // 'd' let 'b' go (the least recently used then); 'b' again let 'c' go.
    expect(loads).toEqual(['a', 'b', 'c', 'd', 'b']);
    expect(kept.size).toBe(3);
    await of('c');
    expect(loads.at(-1)).toBe('c');
    expect(kept.size).toBe(3);
  });

  it('does not keep a failed load', async () => {
    const kept = new KeptLoads<number>(3);
    let tries = 0;
    const load = async () => {
      tries += 1;
      if (tries === 1) throw new Error('Redis away');
      return tries;
    };
    await expect(kept.of('run', load)).rejects.toThrow('Redis away');
    expect(kept.size).toBe(0);
    expect(await kept.of('run', load)).toBe(2);
    expect(await kept.of('run', load)).toBe(2);
  });
});
