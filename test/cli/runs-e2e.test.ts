import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CV = join(ROOT, 'dags/compose-validate.jsonld');
const NODES = join(ROOT, 'test/fixtures/nodes/compose-validate.ts');

let dir: string;
let store: string;
let runId: string;

// A real run recorded by `switchyard run --store`, read back by the run history commands.
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-runs-e2e-'));
  store = join(dir, 'runs.db');
  const input = JSON.stringify([{ topic: 'whales' }, { topic: 'owls' }]);
  const run = await runCli(
    [
      'run',
      CV,
      '--nodes',
      NODES,
      '--input',
      input,
      '--virtual-time',
      '--seed',
      '3',
      '--store',
      store,
      '--events',
      join(dir, 'events.jsonl'),
    ],
    dir,
  );
  expect(run.code, run.err).toBe(0);
  const listed = await runCli(['runs', '--store', store, '--json'], dir);
  const runs = (JSON.parse(listed.out) as { runs: { id: string }[] }).runs;
  expect(runs).toHaveLength(1);
  runId = runs[0]?.id as string;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the history of a run recorded by switchyard run', () => {
  it('lists it as completed with its DAG and item count', async () => {
    const result = await runCli(['runs', '--store', store, '--json'], dir);
    const [row] = (JSON.parse(result.out) as { runs: Record<string, unknown>[] }).runs;
    expect(row).toMatchObject({
      id: runId,
      status: 'completed',
      dag: 'urn:switchyard:dag:compose-validate',
      items: 2,
    });
    expect(typeof row?.durationMs).toBe('number');
  });

  it('shows each item ended at its terminal with the retries its events record', async () => {
    const events = (await readFile(join(dir, 'events.jsonl'), 'utf8'))
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; item?: string });
    const result = await runCli(['runs', 'show', runId, '--store', store, '--json'], dir);
    expect(result.code, result.err).toBe(0);
    const view = JSON.parse(result.out) as { items: { id: string; status: string; retries: number }[] };
    expect(view.items.map((i) => i.id).sort()).toEqual(['1', '2']);
    expect(events.some((e) => e.type === 'retry.scheduled')).toBe(true);
    for (const item of view.items) {
      expect(item.status).toBe('ended');
      expect(item.retries).toBe(
        events.filter((e) => e.type === 'retry.scheduled' && e.item === item.id).length,
      );
    }
  });

  it('prints the recorded events byte for byte as run --events wrote them', async () => {
    const result = await runCli(['runs', 'events', runId, '--store', store], dir);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toBe(await readFile(join(dir, 'events.jsonl'), 'utf8'));
  });

  it('draws the same diagram from the store as from the events file', async () => {
    const fromRun = join(dir, 'run.mmd');
    const fromTrace = join(dir, 'trace.mmd');
    expect((await runCli(['render', CV, '--run', runId, '--store', store, '-o', fromRun], dir)).code).toBe(0);
    expect(
      (await runCli(['render', CV, '--trace', join(dir, 'events.jsonl'), '-o', fromTrace], dir)).code,
    ).toBe(0);
    const text = await readFile(fromRun, 'utf8');
    expect(text).toMatch(/×\d+/);
    expect(text).toBe(await readFile(fromTrace, 'utf8'));
  });
});
