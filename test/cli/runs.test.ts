import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/runtime/events.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import type { CheckpointState, ItemCheckpoint, RunRecord, StoreWrite } from '../../src/store/types.ts';
import { SWITCHYARD } from '../cli-entry.ts';
import { composeValidateTrace, toJsonl } from '../render/trace-fixture.ts';
import { runCli } from './run-cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const REVIEW = 'urn:switchyard:dag:review';
/** Long enough ago for any `--older-than` the tests give. */
const LONG_AGO = Date.UTC(2020, 0, 1);
const NOW = Date.now();

let dir: string;
let storePath: string;
/** A compose-validate run with two retries of item 1 (waits of 100 and 200 ms), then a salvage. */
const events: RunEvent[] = composeValidateTrace();

function runRecord(id: string, overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    id,
    dag: { iri: REVIEW, hash: 'a'.repeat(64), file: 'dags/review.jsonld' },
    documents: [{ iri: 'urn:switchyard:dag:compose-validate', hash: 'b'.repeat(64) }],
    policy: { value: {}, hash: 'c'.repeat(64) },
    input: [{ topic: 'whales' }, { topic: 'owls' }, { topic: 'bats' }],
    options: { entrypoint: 'compose', items: 3, files: {} },
    status: 'running',
    createdAt: NOW - 60_000,
    updatedAt: NOW - 60_000,
    formatVersion: 1,
    engineVersion: '0.1.0',
    ...overrides,
  };
}

function state(budgets: Record<string, number>, trail: unknown[] = []): CheckpointState {
  return { data: { topic: 'whales' }, budgets, journal: {}, trail, visits: {} };
}

/** Item 1 ended at the escalation, item 2 waits out a back-off inside the embed, item 3 is active. */
function checkpoints(runId: string): ItemCheckpoint[] {
  return [
    {
      runId,
      itemId: '1',
      status: 'ended',
      state: state({ review: 2 }),
      position: { dag: REVIEW, placement: 'escalate', visit: 1, frames: [] },
      ending: { kind: 'terminal', placement: 'escalate', outcome: 'failed' },
      updatedAt: NOW - 30_000,
    },
    {
      runId,
      itemId: '2/draft',
      status: 'waiting',
      state: state({ tries: 1 }, [{ kind: 'retry' }]),
      position: {
        dag: 'urn:switchyard:dag:compose-validate',
        placement: 'compose',
        visit: 2,
        frames: [{ kind: 'embed', dag: REVIEW, placement: 'draft', visit: 1 }],
        wait: { until: Date.UTC(2030, 5, 1, 12), reason: 'backoff' },
      },
      updatedAt: NOW - 20_000,
    },
    {
      runId,
      itemId: '3',
      status: 'active',
      state: state({}),
      position: { dag: REVIEW, placement: 'review', visit: 1, frames: [] },
      updatedAt: NOW - 10_000,
    },
  ];
}

/** Item 1 failed with a node error, item 2 was aborted with the run. */
function endedCheckpoints(runId: string): ItemCheckpoint[] {
  const at = (placement: string) => ({ dag: 'urn:other', placement, visit: 1, frames: [] });
  return [
    {
      runId,
      itemId: '1',
      status: 'ended',
      state: state({}),
      position: at('fetch'),
      ending: { kind: 'failure', code: 'E_NODE_ERROR', message: 'socket hang up', placement: 'fetch' },
      updatedAt: NOW - 119_000,
    },
    {
      runId,
      itemId: '2',
      status: 'ended',
      state: state({}),
      position: at('review'),
      ending: { kind: 'aborted', reason: "the caller's signal aborted the run" },
      updatedAt: NOW - 119_000,
    },
  ];
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-runs-'));
  storePath = join(dir, 'runs.db');
  const store = await openSqliteStore(storePath);
  await store.commit([
    {
      kind: 'run',
      run: runRecord('old-done', {
        status: 'completed',
        createdAt: LONG_AGO,
        updatedAt: LONG_AGO,
        finishedAt: LONG_AGO + 1500,
      }),
    },
    { kind: 'run', run: runRecord('review-1') },
    {
      kind: 'run',
      run: runRecord('other-dag', {
        dag: { iri: 'urn:other', hash: 'd'.repeat(64) },
        status: 'failed',
        createdAt: NOW - 120_000,
        finishedAt: NOW - 119_000,
      }),
    },
    ...checkpoints('review-1').map((checkpoint): StoreWrite => ({ kind: 'checkpoint', checkpoint })),
    ...endedCheckpoints('other-dag').map((checkpoint): StoreWrite => ({ kind: 'checkpoint', checkpoint })),
    ...events.map(
      (body): StoreWrite => ({
        kind: 'event',
        event: { runId: 'review-1', seq: body.seq, type: body.type, body },
      }),
    ),
  ]);
  // review-1 is held by a live process; other-dag's holder died long ago.
  const holder = { pid: 4242, host: 'build-7' };
  await store.acquireLease({ runId: 'review-1', holder, now: NOW, ttlMs: 365 * 86_400_000 });
  await store.acquireLease({ runId: 'other-dag', holder, now: LONG_AGO, ttlMs: 30_000 });
  await store.close();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A user mistake: exit `code`, one line on stderr that matches `message`, no stack trace, no stdout. */
function expectOneLine(
  result: { code: number | null; out: string; err: string },
  code: number,
  message: RegExp,
): void {
  expect(result.code, result.err).toBe(code);
  const lines = result.err.trimEnd().split('\n');
  expect(lines, result.err).toHaveLength(1);
  expect(result.err).not.toMatch(/^\s+at /m);
  expect(lines[0]).toMatch(message);
  expect(result.out).toBe('');
}

/** Runs the real program in a child process. */
function child(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [...SWITCHYARD, ...args], {
      cwd: dir,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    proc.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    proc.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    proc.on('error', reject);
    proc.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('switchyard runs', () => {
  it('lists the runs newest first as a table', async () => {
    const result = await runCli(['runs', '--store', storePath], dir);
    expect(result.code, result.err).toBe(0);
    const lines = result.out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+STATUS\s+DAG\s+CREATED\s+DURATION\s+ITEMS$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(['review-1', 'other-dag', 'old-done']);
    expect(lines[3]).toMatch(
      /^old-done\s+completed\s+urn:switchyard:dag:review\s+2020-01-01T00:00:00\.000Z\s+1\.50 s\s+3$/,
    );
    expect(lines[1]).toMatch(/^review-1\s+running\s+.*\s-\s+3$/);
  });

  it('filters by status and DAG, limits, and prints one JSON document', async () => {
    const failed = await runCli(
      ['runs', '--store', storePath, '--status', 'failed,completed', '--json'],
      dir,
    );
    expect(failed.code, failed.err).toBe(0);
    const doc = JSON.parse(failed.out) as { runs: { id: string; durationMs?: number }[]; more: boolean };
    expect(doc.runs.map((r) => r.id)).toEqual(['other-dag', 'old-done']);
    expect(doc.runs[1]?.durationMs).toBe(1500);
    expect(doc.more).toBe(false);
    const byDag = await runCli(['runs', '--store', storePath, '--dag', 'urn:other', '--json'], dir);
    expect((JSON.parse(byDag.out) as { runs: { id: string }[] }).runs.map((r) => r.id)).toEqual([
      'other-dag',
    ]);
    const limited = await runCli(['runs', '--store', storePath, '--limit', '1'], dir);
    expect(limited.out).toContain('review-1');
    expect(limited.out).not.toContain('old-done');
    expect(limited.out).toContain('raise --limit');
  });

  it('refuses a bad status or limit as a usage error', async () => {
    expectOneLine(
      await runCli(['runs', '--store', storePath, '--status', 'done'], dir),
      2,
      /--status done .*E_USAGE/,
    );
    expectOneLine(
      await runCli(['runs', '--store', storePath, '--limit', '0'], dir),
      2,
      /--limit 0 .*E_USAGE/,
    );
  });

  it('reads the store $SWITCHYARD_STORE names, in a real process', async () => {
    const result = await child(['runs', '--json'], { SWITCHYARD_STORE: storePath });
    expect(result.code, result.err).toBe(0);
    expect((JSON.parse(result.out) as { runs: unknown[] }).runs).toHaveLength(3);
  });

  it('says there are no runs when the store file is missing, and creates nothing', async () => {
    const missing = join(dir, 'nowhere', 'runs.db');
    expectOneLine(
      await runCli(['runs', '--store', missing], dir),
      1,
      /^switchyard: no runs recorded at nowhere\/runs\.db: run `switchyard run` first.*\(E_NO_RUNS\)$/,
    );
    expectOneLine(await runCli(['runs', 'show', 'x', '--store', missing], dir), 1, /E_NO_RUNS/);
    expect(existsSync(join(dir, 'nowhere'))).toBe(false);
    // The default store is .switchyard/runs.db under the current folder.
    expectOneLine(await runCli(['runs'], dir), 1, /no runs recorded at \.switchyard\/runs\.db/);
    expect(existsSync(join(dir, '.switchyard'))).toBe(false);
  });
});

describe('switchyard runs show', () => {
  it("prints the run and each item's place, wait, retries and budgets", async () => {
    const result = await runCli(['runs', 'show', 'review-1', '--store', storePath], dir);
    expect(result.code, result.err).toBe(0);
    const out = result.out;
    expect(out).toMatch(/^run review-1 {2}running$/m);
    expect(out).toContain(`dag      ${REVIEW}  sha256 ${'a'.repeat(64)}  (dags/review.jsonld)`);
    expect(out).toContain(`policy   sha256 ${'c'.repeat(64)}`);
    expect(out).toContain('3 items recorded (1 active, 1 waiting, 1 ended)');
    expect(out).toMatch(/^item 1 {2}ended at terminal escalate \(failed\); last at escalate/m);
    expect(out).toContain(
      'item 2/draft  waiting at draft › compose (urn:switchyard:dag:compose-validate, visit 2) until 2030-06-01T12:00:00.000Z (backoff)',
    );
    expect(out).toMatch(/^item 3 {2}active at review \(urn:switchyard:dag:review, visit 1\)$/m);
    expect(out).toContain('budgets  review 2');
    expect(out).toContain('budgets  tries 1');
    expect(out).toMatch(/^ {2}lease {4}held by process 4242 on build-7 until \S+Z$/m);
    const other = await runCli(['runs', 'show', 'other-dag', '--store', storePath], dir);
    expect(other.out).toContain('lease    expired at 2020-01-01T00:00:30.000Z (process 4242 on build-7)');
    expect(other.out).toMatch(/^item 1 {2}failed E_NODE_ERROR at fetch: socket hang up; last at fetch/m);
    expect(other.out).toMatch(/^item 2 {2}aborted: the caller's signal aborted the run; last at review/m);
    expect(other.out).toContain('2 items recorded (2 ended)');
  });

  it('counts retries from the recorded retry.scheduled events', async () => {
    const result = await runCli(['runs', 'show', 'review-1', '--store', storePath, '--json'], dir);
    expect(result.code, result.err).toBe(0);
    const view = JSON.parse(result.out) as {
      policyHash: string;
      items: { id: string; retries: number; waits: { delayMs: number }[]; wait?: { until: string } }[];
    };
    const scheduled = events.filter((e) => e.type === 'retry.scheduled');
    expect(scheduled.length).toBeGreaterThan(0);
    const item1 = view.items.find((i) => i.id === '1');
    expect(item1?.retries).toBe(scheduled.filter((e) => e.item === '1').length);
    expect(item1?.waits.map((w) => w.delayMs)).toEqual(
      scheduled.filter((e) => e.item === '1').map((e) => (e.type === 'retry.scheduled' ? e.delayMs : -1)),
    );
    expect(view.items.find((i) => i.id === '2/draft')?.wait?.until).toBe('2030-06-01T12:00:00.000Z');
    expect(view.policyHash).toBe('c'.repeat(64));
  });

  it('refuses an unknown run id with one line', async () => {
    expectOneLine(
      await runCli(['runs', 'show', 'nope', '--store', storePath], dir),
      1,
      /^switchyard: no run 'nope' in .*runs\.db: list the recorded runs with `switchyard runs` \(E_RESUME_UNKNOWN_RUN\)$/,
    );
    expectOneLine(
      await runCli(['runs', 'events', 'nope', '--store', storePath], dir),
      1,
      /E_RESUME_UNKNOWN_RUN/,
    );
  });
});

describe('switchyard runs events', () => {
  it('prints the recorded events as the JSONL run --events writes', async () => {
    const result = await runCli(['runs', 'events', 'review-1', '--store', storePath], dir);
    expect(result.code, result.err).toBe(0);
    const lines = result.out.trimEnd().split('\n');
    expect(lines).toEqual(events.map((e) => JSON.stringify(e)));
  });
});

describe('switchyard render --run', () => {
  it("draws the recorded run's path with its counts, as --trace draws the same events", async () => {
    const dag = join(ROOT, 'dags/compose-validate.jsonld');
    const fromRun = join(dir, 'cv-run.mmd');
    const result = await runCli(
      ['render', dag, '--run', 'review-1', '--store', storePath, '-o', fromRun],
      dir,
    );
    expect(result.code, result.err).toBe(0);
    expect(result.err).toBe('');
    const text = await readFile(fromRun, 'utf8');
    expect(text).toContain('×2 · waited 300 ms');
    const trace = join(dir, 'run.jsonl');
    await writeFile(trace, toJsonl(events));
    const fromTrace = join(dir, 'cv-trace.mmd');
    expect((await runCli(['render', dag, '--trace', trace, '-o', fromTrace], dir)).code).toBe(0);
    expect(text).toBe(await readFile(fromTrace, 'utf8'));
  });

  it('warns when the run has no events of the DAG drawn', async () => {
    const output = join(dir, 'checkout.mmd');
    const dag = join(ROOT, 'dags/checkout.jsonld');
    const result = await runCli(
      ['render', dag, '--run', 'review-1', '--store', storePath, '-o', output],
      dir,
    );
    expect(result.code, result.err).toBe(0);
    expect(result.err).toMatch(/^warning: run review-1 has no events of urn:switchyard:dag:checkout\n$/);
  });

  it('refuses --trace with --run, and an unknown run', async () => {
    const output = join(dir, 'never.mmd');
    const dag = join(ROOT, 'dags/review.jsonld');
    expectOneLine(
      await runCli(['render', dag, '--run', 'x', '--trace', 'y', '-o', output], dir),
      2,
      /either --trace .* or --run/,
    );
    expectOneLine(
      await runCli(['render', dag, '--run', 'nope', '--store', storePath, '-o', output], dir),
      1,
      /E_RESUME_UNKNOWN_RUN/,
    );
    expect(existsSync(output)).toBe(false);
  });
});

describe('switchyard runs prune', () => {
  it('refuses an age it cannot read as a usage error', async () => {
    for (const age of ['30', '30 days', '1w', '-5d', '']) {
      expectOneLine(
        await runCli(['runs', 'prune', '--older-than', age, '--store', storePath], dir),
        2,
        /--older-than .* is not an age.*E_USAGE/,
      );
    }
    expectOneLine(
      await runCli(['runs', 'prune', '--older-than', '1d', '--status', 'running', '--store', storePath], dir),
      2,
      /--status running is not allowed/,
    );
  });

  it('deletes old ended runs and gives the space back', async () => {
    const path = join(dir, 'prune.db');
    const store = await openSqliteStore(path);
    const padding = 'x'.repeat(2000);
    for (let batch = 0; batch < 10; batch++) {
      const writes: StoreWrite[] = [];
      for (let i = 0; i < 30; i++) {
        const id = `old-${batch}-${i}`;
        writes.push({
          kind: 'run',
          run: runRecord(id, {
            status: 'completed',
            createdAt: LONG_AGO,
            updatedAt: LONG_AGO,
            finishedAt: LONG_AGO + 1,
            input: [padding],
          }),
        });
        for (let seq = 1; seq <= 5; seq++) {
          writes.push({ kind: 'event', event: { runId: id, seq, type: 'warning', body: { seq, padding } } });
        }
      }
      await store.commit(writes);
    }
    await store.commit([
      { kind: 'run', run: runRecord('recent', { status: 'completed', finishedAt: NOW }) },
      {
        kind: 'run',
        run: runRecord('old-failed', { status: 'failed', createdAt: LONG_AGO, finishedAt: LONG_AGO }),
      },
      { kind: 'run', run: runRecord('old-running', { createdAt: LONG_AGO }) },
    ]);
    await store.close();
    const failed = await runCli(
      ['runs', 'prune', '--older-than', '30d', '--status', 'failed', '--store', path],
      dir,
    );
    expect(failed.out).toMatch(/^pruned 1 run created before/);
    const before = (await stat(path)).size;
    const result = await runCli(['runs', 'prune', '--older-than', '30d', '--store', path], dir);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toMatch(
      /^pruned 300 runs created before .* from prune\.db; reclaimed \d+(\.\d)? (KB|MB)\n$/,
    );
    const after = (await stat(path)).size;
    expect(after).toBeLessThan(before / 4);
    const left = await runCli(['runs', '--store', path, '--json'], dir);
    // A run still marked running is never pruned: it may be resumed.
    expect((JSON.parse(left.out) as { runs: { id: string }[] }).runs.map((r) => r.id)).toEqual([
      'recent',
      'old-running',
    ]);
  });
});

describe('a corrupt store file', () => {
  it('is refused with one line and left byte for byte as it was, in a real process', async () => {
    const good = await readFile(storePath);
    const corrupt = Buffer.from(good);
    // Keep the header, so the file still claims to be SQLite, and wreck every page after the first.
    corrupt.fill(0xa5, 4096);
    const path = join(dir, 'corrupt.db');
    await writeFile(path, corrupt);
    for (const args of [['runs'], ['runs', 'show', 'review-1'], ['runs', 'prune', '--older-than', '1d']]) {
      const result = await child([...args, '--store', path]);
      expect(result.code, result.err).toBe(1);
      expect(result.err.trimEnd().split('\n'), result.err).toHaveLength(1);
      expect(result.err).toMatch(/E_STORE_(CORRUPT|NOT_A_DATABASE)/);
      expect(result.err).not.toMatch(/^\s+at /m);
      expect((await readFile(path)).equals(corrupt)).toBe(true);
    }
  });

  it('refuses a file that is not a store at all', async () => {
    const path = join(dir, 'notes.txt');
    await writeFile(path, 'hello, these are notes, not runs\n'.repeat(10));
    expectOneLine(
      await runCli(['runs', '--store', path], dir),
      1,
      /is not a run store.*E_STORE_NOT_A_DATABASE/,
    );
  });
});
