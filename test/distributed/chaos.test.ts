/**
 * Chaos: three worker processes carry 1,000 items through a document with a retry loop, a salvage route
 * and a scatter/gather whose nodes fail at random, between a pre and a post phase; one worker is killed with SIGKILL twice during the run
 * and replaced each time. At the end every item is in exactly one list of the result, every budget is
 * within its maximum, every gather saw each of its children exactly once, and no step ran again once its
 * value was committed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createDistributedDispatcher } from '../../src/distributed/dispatcher.ts';
import { dag } from '../../src/document/builder.ts';
import { openRedisStore } from '../../src/store/redis.ts';
import { removeScratchKeys, scratchPrefix, TEST_REDIS } from '../store/redis-scratch.ts';
import { nodes } from './fixtures/chaos-nodes.ts';

afterAll(removeScratchKeys);

const WORKER = fileURLToPath(new URL('./fixtures/chaos-worker.ts', import.meta.url));
const ITEMS = 1000;
const PARTS = 3;

const doc = dag('urn:test:chaos', { name: 'chaos', version: '1' })
  .budget('tries', 3)
  .entry('work')
  .task('work', 'urn:chaos:work')
  .route('ok', 'fan')
  .retry('again', 'work', { budget: 'tries', exhausted: 'salvage' })
  .task('salvage', 'urn:chaos:salvage')
  .salvage('salvaged', 'fan')
  .scatter('fan', { items: '/parts', node: 'urn:chaos:part' })
  .route('done', 'join')
  .gather('join', { into: '/out', reducer: 'partition', require: 'any' })
  .route('completed', 'done')
  .route('failed', 'nothing')
  .terminal('done', 'completed')
  .terminal('nothing', 'failed')
  .phase('open', 'pre', 'urn:chaos:open')
  .phase('close', 'post', 'urn:chaos:close')
  .build();

function startWorker(prefix: string, log: string): { child: ChildProcess; ready: Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, TEST_REDIS, prefix, 'chaos'], {
    env: { ...process.env, CHAOS_LOG: log },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = new Promise<void>((resolve) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
    });
  });
  return { child, ready };
}

describe('chaos', () => {
  it('ends every item exactly once while workers are killed', { timeout: 180_000 }, async () => {
    const prefix = scratchPrefix();
    const log = join(await mkdtemp(join(tmpdir(), 'switchyard-chaos-')), 'side-effects.log');
    const workers = [0, 1, 2].map(() => startWorker(prefix, log));
    await Promise.all(workers.map((w) => w.ready));
    const store = await openRedisStore(TEST_REDIS, { prefix: `${prefix}store:` });
    const dispatcher = await createDistributedDispatcher({
      connection: TEST_REDIS,
      nodes,
      prefix,
      queue: 'chaos',
      store,
      policy: { defaults: { backoff: { strategy: 'constant', baseMs: 5, capMs: 5 }, jitter: 'none' } },
    });
    let kills = 0;
    try {
      let ended = 0;
      const killAt = new Set([150, 500]);
      const items = Array.from({ length: ITEMS }, (_x, i) => ({
        n: i,
        parts: Array.from({ length: PARTS }, (_y, j) => `p${j}`),
      }));
      const result = await dispatcher.run(
        doc,
        {},
        {
          items,
          onEvent: (event) => {
            if (event.type !== 'item.end' || event.item.includes('.')) return;
            ended++;
            if (!killAt.has(ended)) return;
            const victim = workers[kills % 3] as (typeof workers)[number];
            victim.child.kill('SIGKILL');
            kills++;
            workers[workers.indexOf(victim)] = startWorker(prefix, log);
          },
        },
      );
      expect(kills).toBe(2);
      // Conservation: every input item once, in exactly one list.
      const ids = [
        ...result.items.map((i) => i.id),
        ...result.failures.map((f) => f.id),
        ...result.aborted.map((a) => a.item),
      ];
      expect(ids.sort()).toEqual(items.map((_x, i) => String(i + 1)).sort());
      expect(result.failures).toEqual([]);
      expect(result.phaseErrors).toEqual([]);
      for (const item of result.items) {
        expect(item.state.budgets.tries ?? 0).toBeLessThanOrEqual(3);
        // The gather saw every child exactly once: each index is completed or failed, never both, never missing.
        const out = item.data.out as { completed: number[]; failed: { index: number }[] };
        const seen = [...out.completed, ...out.failed.map((f) => f.index)].sort();
        expect(seen).toEqual(Array.from({ length: PARTS }, (_x, j) => j));
      }
      const salvaged = result.items.filter((i) =>
        i.state.trail.some((t) => t.placement === 'salvage'),
      ).length;
      expect(salvaged).toBeGreaterThan(0);
      // Side effects: no step runs again once its value was committed. A step cut by a kill between its
      // end and its commit is not recorded, and runs again: that window is counted, not refused.
      const lines = (await readFile(log, 'utf8')).trim().split('\n');
      const committed = new Set<string>();
      const ran = new Map<string, number>();
      const afterCommit: string[] = [];
      for (const line of lines) {
        const [what, key] = line.split(' ') as [string, string];
        if (what === 'committed') committed.add(key);
        else {
          if (committed.has(key)) afterCommit.push(key);
          ran.set(key, (ran.get(key) ?? 0) + 1);
        }
      }
      expect(afterCommit).toEqual([]);
      // Each phase ran, with the run item the pre phase left for the post phase.
      expect([...ran.keys()].filter((key) => /open|close/u.test(key))).toHaveLength(2);
      const repeated = [...ran.values()].filter((n) => n > 1).length;
      console.info(
        `chaos: ${ITEMS} items, ${kills} kills, ${ran.size} steps, ${repeated} repeated, ${salvaged} salvaged, ${result.stats.durationMs.toFixed(0)} ms`,
      );
    } finally {
      await dispatcher.close();
      for (const w of workers) w.child.kill('SIGTERM');
      await Promise.all(
        workers.map((w) =>
          w.child.exitCode === null && w.child.signalCode === null ? once(w.child, 'exit') : undefined,
        ),
      );
      await store.close();
    }
  });
});
