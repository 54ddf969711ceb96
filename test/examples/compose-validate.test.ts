import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/runtime/events.ts';
import { runCli } from '../cli/run-cli.ts';

const dir = await mkdtemp(join(tmpdir(), 'compose-validate-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

const DAG = 'dags/compose-validate.jsonld';
const NODES = 'examples/compose-validate/nodes.ts';

let runs = 0;

async function run(
  input: unknown,
  extra: readonly string[] = [],
): Promise<{ code: number; out: string; events: RunEvent[] }> {
  runs += 1;
  const events = join(dir, `run-${runs}.jsonl`);
  const result = await runCli([
    'run',
    DAG,
    '--nodes',
    NODES,
    '--input',
    JSON.stringify(input),
    '--virtual-time',
    '--events',
    events,
    ...extra,
  ]);
  const lines = (await readFile(events, 'utf8')).trim().split('\n');
  return { code: result.code, out: result.out, events: lines.map((l) => JSON.parse(l) as RunEvent) };
}

describe('the compose/validate example through switchyard run', () => {
  it('waits the 429 Retry-After, spends the compose budget, then salvages', async () => {
    const { code, out, events } = await run({ topic: 'whales', rejections: 5, fail: '429' });
    expect(code).toBe(0);
    expect(out).toContain('salvaged (completed): 1 item');
    const retries = events.filter((e) => e.type === 'retry.scheduled');
    expect(retries[0]).toMatchObject({ budget: 'transient', delayMs: 2000, delaySource: 'retry-after' });
    expect(retries.filter((e) => e.budget === 'compose')).toHaveLength(3);
    expect(events.find((e) => e.type === 'budget.exhausted')).toMatchObject({
      budget: 'compose',
      to: 'salvage',
      why: 'spent',
    });
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
  });

  it('cuts a hanging composition at its deadline and retries it; a 400 takes the salvage route at once', async () => {
    const { code, events } = await run([
      { topic: 'whales', fail: 'hang' },
      { topic: 'owls', fail: '400' },
    ]);
    expect(code).toBe(0);
    const ends = events.filter((e) => e.type === 'placement.end' && e.placement === 'compose' && e.error);
    expect(ends.map((e) => e.type === 'placement.end' && [e.item, e.output, e.error?.code])).toEqual(
      expect.arrayContaining([
        ['1', 'retry', 'E_DEADLINE'],
        ['2', 'error', 'E_NODE_ERROR'],
      ]),
    );
    const ended = events.filter((e) => e.type === 'item.end');
    expect(ended.map((e) => e.type === 'item.end' && [e.item, e.terminal])).toEqual(
      expect.arrayContaining([
        ['1', 'done'],
        ['2', 'salvaged'],
      ]),
    );
  });

  it('waits the same delays on every run with --seed', async () => {
    const input = { topic: 'whales', rejections: 5 };
    const delays = async () =>
      (await run(input, ['--seed', '7'])).events.flatMap((e) =>
        e.type === 'retry.scheduled' ? [e.delayMs] : [],
      );
    const first = await delays();
    expect(first).toHaveLength(3);
    expect(await delays()).toEqual(first);
  });
});
