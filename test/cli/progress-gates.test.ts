/**
 * Progress while items wait at a gate: how many wait at which key, why, and the countdown of the closing
 * they wait out, on the run's clock though a closing ends at a wall time. Counted from the events of real
 * runs through a dispatcher's gates on the virtual clock, and printed by `run --progress` off a terminal.
 */
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { progressState } from '../../src/cli/progress-state.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { callChain } from '../gates/call-chain.ts';
import { runCli } from './run-cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const GATED = join(ROOT, 'test/cli/fixtures/gated-nodes.ts');

const chain = callChain('urn:test:progress-gates');

const rateLimited = (retryAfter: number) =>
  Object.assign(new Error('429 Too Many Requests'), { status: 429, retryAfter });

/**
 * Runs `items` items through gate `api` of `gate`, the first call answering `first` (when given); returns
 * the progress line after each event, with the event's type and the run clock's time.
 */
async function linesOf(gate: Record<string, unknown>, items: number, first?: Error, work = 0) {
  // The wall clock far from the run's clock: a countdown that mixed them up would be off by hours.
  const clock = createVirtualClock({ auto: true, start: 0, wallStart: 1_800_000_000_000 });
  let calls = 0;
  const node = defineNode({
    id: 'urn:test:call',
    outputs: ['ok'],
    run: async () => {
      calls += 1;
      const call = calls;
      if (work > 0) await clock.sleep(work);
      if (call === 1 && first !== undefined) throw first;
      return 'ok';
    },
  });
  const policy = {
    defaults: { backoff: { strategy: 'constant', baseMs: 5000, capMs: 5000 }, jitter: 'none' },
    gates: { api: { placements: ['call'], ...gate } },
  } as PolicyInput;
  const state = progressState('run r', items);
  const lines: { type: string; at: number; line: string }[] = [];
  const onEvent = (event: RunEvent) => {
    state.onEvent(event, clock.now(), clock.wallNow());
    lines.push({ type: event.type, at: clock.now(), line: state.line(clock.now()) });
  };
  const items_ = Array.from({ length: items }, () => ({}));
  await createDispatcher({ nodes: [node], clock, policy }).run(chain, {}, { items: items_, onEvent });
  return { lines, state, clock };
}

describe('the progress line at a gate', () => {
  it('says how many wait at a closed key, why and how long is left; then the pace; then nothing', async () => {
    const { lines } = await linesOf({ concurrency: 1 }, 13, rateLimited(14_000), 100);
    const closed = lines.findIndex((l) => l.type === 'gate.closed');
    // At the 429 (time 100) the twelve other items queue behind item 1's call.
    expect(lines[closed]).toEqual({
      type: 'gate.closed',
      at: 100,
      line: 'run r: 0/13 items ended; 12 items waiting at gate api (Retry-After, 14 s left)',
    });
    // Item 1 takes its retry route with the same wait.
    const retried = lines.find((l) => l.type === 'retry.scheduled');
    expect(retried?.line).toBe(
      'run r: 0/13 items ended, 1 retry; 12 items waiting at gate api (Retry-After, 14 s left); item 1 waits 14 s before call (Retry-After from 429 Too Many Requests)',
    );
    // The gate reopens at 14 100 and lets one item through at a time, each call taking 100 ms: what the
    // line says once each instant's events are all in. Item 1, back from its retry wait, queues last.
    const settled = new Map(lines.map((l) => [l.at, l.line]));
    expect(lines.find((l) => l.type === 'gate.opened')?.at).toBe(14_100);
    expect(settled.get(14_100)).toBe(
      'run r: 0/13 items ended, 1 retry; 12 items waiting at gate api (concurrency)',
    );
    expect(settled.get(14_200)).toBe(
      'run r: 1/13 items ended, 1 retry; 11 items waiting at gate api (concurrency)',
    );
    expect(lines.at(-1)?.line).toBe('run r: 13/13 items ended, 1 retry');
    // No line ever counts down past the closing or counts an item twice.
    for (const { line } of lines) expect(line).not.toMatch(/\b(1[3-9]|[2-9]\d) items waiting/);
  });

  it('says rate while items wait for the pace, without a countdown', async () => {
    const { lines } = await linesOf({ rate: { limit: 10, periodMs: 1000 } }, 5);
    expect(lines.filter((l) => l.type === 'gate.wait').map((l) => l.line)).toEqual([
      'run r: 0/5 items ended; 1 item waiting at gate api (rate)',
      'run r: 0/5 items ended; 2 items waiting at gate api (rate)',
      'run r: 0/5 items ended; 3 items waiting at gate api (rate)',
      'run r: 0/5 items ended; 4 items waiting at gate api (rate)',
    ]);
    // Each goes through 100 ms after the one before: the count goes down as they do.
    expect(lines.filter((l) => l.type === 'gate.passed').map((l) => [l.at, l.line])).toEqual([
      [100, 'run r: 1/5 items ended; 3 items waiting at gate api (rate)'],
      [200, 'run r: 2/5 items ended; 2 items waiting at gate api (rate)'],
      [300, 'run r: 3/5 items ended; 1 item waiting at gate api (rate)'],
      [400, 'run r: 4/5 items ended'],
    ]);
  });

  it('says back-off when the closing has no Retry-After, and counts down on the run clock', async () => {
    const noHint = Object.assign(new Error('429 Too Many Requests'), { status: 429 });
    const { lines } = await linesOf({ concurrency: 1 }, 3, noHint, 100);
    const closed = lines.find((l) => l.type === 'gate.closed');
    expect(closed?.line).toBe('run r: 0/3 items ended; 2 items waiting at gate api (back-off, 5 s left)');
  });
});

describe('run --progress off a terminal', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchyard-progress-gates-'));
    await copyFile(join(ROOT, 'dags/compose-validate.jsonld'), join(dir, 'cv.jsonld'));
    const policy = {
      defaults: { jitter: 'none', retryAfter: { honour: true, capMs: 600000 } },
      gates: { provider: { placements: ['compose'], concurrency: 1 } },
    };
    await writeFile(join(dir, 'gated.policy.json'), JSON.stringify(policy));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('prints a line when items start waiting at a gate and counts its closing down in virtual time', async () => {
    const input = [{ retryAfterMs: 25_000 }, {}, {}, {}];
    const args = ['run', 'cv.jsonld', '--nodes', GATED, '--policy', 'gated.policy.json', '--no-store'];
    const result = await runCli(
      [...args, '--virtual-time', '--progress', '--input', JSON.stringify(input)],
      dir,
    );
    expect(result.code, result.err).toBe(0);
    const retry = 'item 1 waits %s before compose (Retry-After from 429 Too Many Requests)';
    const line = (rest: string) => `switchyard: running: 0/4 items ended, 1 retry; ${rest}`;
    expect(result.err.trimEnd().split('\n')).toEqual([
      'switchyard: running: 0/4 items ended',
      line(retry.replace('%s', '25 s')),
      line(`1 item waiting at gate provider (Retry-After, 25 s left); ${retry.replace('%s', '25 s')}`),
      line(`3 items waiting at gate provider (Retry-After, 15 s left); ${retry.replace('%s', '15 s')}`),
      line(`3 items waiting at gate provider (Retry-After, 5 s left); ${retry.replace('%s', '5 s')}`),
      line('3 items waiting at gate provider (reopened)'),
      line('2 items waiting at gate provider (concurrency)'),
      'switchyard: running: 1/4 items ended, 1 retry',
      'switchyard: running: 2/4 items ended, 1 retry',
      'switchyard: running: 3/4 items ended, 1 retry',
      'switchyard: running: 4/4 items ended, 1 retry',
    ]);
    expect(result.out).toMatch(/^time: 25\.0 s \(virtual clock\)$/m);
  });
});
