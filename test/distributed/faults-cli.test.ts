/**
 * `switchyard worker` with a --nodes module that lacks a node a run needs: it leaves those jobs for a worker
 * that has the node and says so on stderr once, however many jobs it hands back; the run completes on the
 * other worker. Real Redis; every key is under a scratch prefix and removed.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { nodes } from '../../examples/compose-validate/nodes.ts';
import { createDistributedDispatcher } from '../../src/distributed/dispatcher.ts';
import { startWorker } from '../../src/distributed/worker.ts';
import type { NodeDefinition } from '../../src/runtime/node.ts';
import { loadDag } from '../runtime/helpers.ts';
import { removeScratchKeys, scratchPrefix, TEST_REDIS } from '../store/redis-scratch.ts';

afterAll(removeScratchKeys);

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/dev/switchyard.js', import.meta.url));
const LACKING = 'test/distributed/fixtures/compose-only-nodes.ts';

describe('switchyard worker without a node the run needs', () => {
  it('says so once on stderr and leaves the jobs for a worker that has it', { timeout: 60_000 }, async () => {
    const prefix = scratchPrefix();
    const args = [
      'worker',
      '--redis',
      TEST_REDIS,
      '--nodes',
      LACKING,
      '--queue',
      'faults',
      '--concurrency',
      '4',
    ];
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, SWITCHYARD_REDIS_PREFIX: prefix },
    });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    const all = nodes as unknown as NodeDefinition<string, never>[];
    const dist = `${prefix}dist`;
    const dispatcher = await createDistributedDispatcher({
      connection: TEST_REDIS,
      nodes: all,
      prefix: dist,
      queue: 'faults',
    });
    let full: Awaited<ReturnType<typeof startWorker>> | undefined;
    try {
      while (!err.includes('taking jobs')) await new Promise((resolve) => setTimeout(resolve, 20));
      const items = ['whales', 'owls', 'bats', 'moths', 'eels', 'crabs'].map((topic) => ({ topic }));
      const run = dispatcher.run(await loadDag('compose-validate'), {}, { items });
      while (!err.includes('does not register')) await new Promise((resolve) => setTimeout(resolve, 20));
      full = await startWorker({
        connection: TEST_REDIS,
        nodes: all,
        prefix: dist,
        queue: 'faults',
        concurrency: 4,
      });
      const result = await run;
      expect(result.status).toBe('completed');
      expect(result.items.map((i) => i.terminal)).toEqual(items.map(() => 'done'));
      const lines = err.trim().split('\n');
      expect(lines.filter((line) => line.includes('does not register'))).toEqual([
        "switchyard worker: this worker does not register node 'urn:switchyard:node:validate' (placement 'validate' of DAG 'urn:switchyard:dag:compose-validate'); it leaves such jobs for workers that do. Add the node to this worker's --nodes module, or start a worker that registers it",
      ]);
    } finally {
      await dispatcher.close();
      await full?.close();
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    }
    expect(child.exitCode).toBe(0);
  });
});
