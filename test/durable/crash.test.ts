/**
 * The crash test: `switchyard run` with a store, killed with SIGKILL at seeded random moments (during a
 * node, during a back-off, right after a step, between a step's side effect and its commit, anywhere) and
 * resumed with `switchyard resume` (killed in turn) until each run ends; then every promise of a durable
 * run is checked on the store, the final summary and the nodes' side-effect log. Real processes, real
 * SQLite, real clock. `CRASH_SEED=<n>` replays another seed.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import type { RunStore } from '../../src/store/types.ts';
import {
  type CheckCounts,
  type CrashItem,
  checkBudgets,
  checkEndings,
  checkSteps,
  checkWaits,
  type FinalSummary,
} from './crash-checks.ts';
import {
  DAG,
  drive,
  type KillMode,
  type KillPlan,
  NODES,
  type Outcome,
  POLICY,
  prng,
  readLog,
} from './crash-harness.ts';

const SEED = Number(process.env.CRASH_SEED ?? '20261201');
/** Kill points the test makes at least, across its runs. */
const KILLS = Number(process.env.CRASH_KILLS ?? '32');
/** Processes the test starts at most: a run that never ends fails the test instead of hanging it. */
const MAX_PROCESSES = 150;

const random = prng(SEED);
let dir: string;
const stores: RunStore[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-crash-'));
});
afterAll(async () => {
  for (const store of stores) await store.close().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

/** Input items drawn from the seed: retries, Retry-After waits, parts, and items that end badly. */
function drawInput(count: number): CrashItem[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `item-${i + 1}`,
    parts: Array.from({ length: random.int(1, 3) }, () => ({ fails: random.int(0, 3) })),
    fetchFails: random.int(0, 4),
    fetchRetryAfterMs: random.next() < 0.5 ? 0 : random.int(40, 150),
    reviewFails: random.int(0, 3),
    reviewRetryAfterMs: random.int(30, 120),
    ...(random.next() < 0.1 ? { fatal: true } : {}),
  }));
}

const MODES: readonly KillMode[] = ['node', 'after-step', 'backoff', 'window', 'random'];

function drawPlan(): KillPlan {
  const mode = MODES[random.int(0, MODES.length - 1)] as KillMode;
  const n = mode === 'random' ? 1 : random.int(1, 4);
  const delayMs = mode === 'random' ? random.int(0, 400) : mode === 'node' ? 0 : random.int(2, 12);
  return { mode, n, delayMs };
}

/**
 * Near the end, a kill of a kind the random draws have not landed yet (timing decides whether a process
 * reaches its n-th step or retry before it ends), so that every kind is covered whatever the machine's speed.
 */
function missing(tally: KillTally): KillPlan | undefined {
  if (tally.kills < KILLS - 6) return undefined;
  if (tally.inWindow === 0) return { mode: 'window', n: 1, delayMs: 0 };
  if (tally.duringBackoff === 0) return { mode: 'backoff', n: 1, delayMs: 3 };
  if (tally.duringNode === 0) return { mode: 'node', n: 1, delayMs: 0 };
  return undefined;
}

/** What each kill fell on, found afterwards in the log and the store. */
interface KillTally {
  kills: number;
  duringNode: number;
  duringBackoff: number;
  inWindow: number;
  elsewhere: number;
}

/** Classifies a kill: a node had started and not ended, an item was waiting, a step was in its window. */
async function classify(store: RunStore, runId: string, log: string, outcome: Outcome, tally: KillTally) {
  tally.kills += 1;
  const mine = readLog(log).filter((l) => l.pid === outcome.pid);
  const open = new Map<string, number>();
  for (const line of mine) {
    const key = `${line.item}|${line.placement}|${line.visit}|${line.attempt}`;
    if (line.k === 'start') open.set(key, (open.get(key) ?? 0) + 1);
    if (line.k === 'end') open.set(key, (open.get(key) ?? 0) - 1);
  }
  const inNode = [...open.values()].some((v) => v > 0);
  const waiting = (await store.listCheckpoints(runId, 'waiting')).some(
    (c) => (c.position.wait?.until ?? 0) > (outcome.killedAt ?? 0),
  );
  if (outcome.windowKey !== undefined) tally.inWindow += 1;
  if (inNode) tally.duringNode += 1;
  if (waiting) tally.duringBackoff += 1;
  if (outcome.windowKey === undefined && !inNode && !waiting) tally.elsewhere += 1;
}

/**
 * A SIGKILLed process cannot give its lease up; it would expire after the lease's time to live. The test
 * gives it up in the killed holder's place, so that 30 kills do not wait 30 expiries; the lease guard
 * itself (a live holder refuses a resume) is tested in cli-resume.test.ts.
 */
async function freeLeaseOf(store: RunStore, runId: string, pid: number): Promise<void> {
  const lease = await store.getLease(runId);
  if (lease !== undefined && lease.pid === pid) await store.releaseLease(lease);
}

/**
 * The final summary: the last process's `--json`, or, when a kill landed after the run had ended and before
 * it printed (the resume is then refused with E_RUN_FINISHED), the endings the store recorded.
 */
async function finalSummary(
  outcome: Outcome,
  store: RunStore,
  runId: string | undefined,
): Promise<FinalSummary> {
  if (runId !== undefined && outcome.code === 1 && outcome.err.includes('(E_RUN_FINISHED)')) {
    const roots = (await store.listCheckpoints(runId, 'ended')).filter((c) => !/[./]/u.test(c.itemId));
    const items = roots.flatMap((c) =>
      c.ending?.kind === 'terminal' ? [{ id: c.itemId, terminal: c.ending.placement }] : [],
    );
    const failures = roots.filter((c) => c.ending?.kind === 'failure').map((c) => ({ id: c.itemId }));
    const aborted = roots.filter((c) => c.ending?.kind === 'aborted');
    return { runId, status: (await store.getRun(runId))?.status ?? 'unknown', items, failures, aborted };
  }
  try {
    return JSON.parse(outcome.out) as FinalSummary;
  } catch {
    throw new Error(
      `the last process printed no JSON summary (exit ${outcome.code}):\n${outcome.out}\n${outcome.err}`,
    );
  }
}

describe('a durable run killed with SIGKILL and resumed', () => {
  it(`keeps every promise across at least ${KILLS} kills (seed ${SEED})`, { timeout: 600_000 }, async () => {
    const storePath = join(dir, 'runs.db');
    const tally: KillTally = { kills: 0, duringNode: 0, duringBackoff: 0, inWindow: 0, elsewhere: 0 };
    const counts: CheckCounts = {
      committedSteps: 0,
      windowRepeats: 0,
      waits: 0,
      waitsAcrossRestart: 0,
      repeatedEndEvents: 0,
    };
    const problems: string[] = [];
    let processes = 0;
    let runs = 0;
    const known = new Set<string>();
    while (tally.kills < KILLS) {
      runs += 1;
      const input = drawInput(6);
      const inputFile = join(dir, `input-${runs}.json`);
      await writeFile(inputFile, JSON.stringify(input));
      const log = join(dir, `effects-${runs}.jsonl`);
      const killed = new Set<number>();
      let runId: string | undefined;
      let last: Outcome | undefined;
      for (let generation = 0; last === undefined; generation++) {
        processes += 1;
        expect(processes, 'processes started').toBeLessThanOrEqual(MAX_PROCESSES);
        const plan: KillPlan =
          tally.kills < KILLS ? (missing(tally) ?? drawPlan()) : { mode: 'none', n: 0, delayMs: 0 };
        const events = join(dir, `events-${runs}-${generation}.jsonl`);
        const common = ['--store', storePath, '--events', events, '--json'];
        const args =
          runId === undefined
            ? ['run', DAG, '--nodes', NODES, '--policy', POLICY, '--input', `@${inputFile}`, ...common]
            : ['resume', runId, '--nodes', NODES, ...common];
        const began = Date.now();
        const outcome = await drive(args, dir, {}, log, plan);
        if (process.env.CRASH_VERBOSE) {
          const how = outcome.code === null ? 'killed' : `exit ${outcome.code}`;
          console.error(
            `run ${runs}.${generation} ${args[0]} ${plan.mode}/${plan.n}/${plan.delayMs}: ${how} after ${Date.now() - began} ms ${outcome.err.trim()}`,
          );
        }
        if (outcome.code !== null) {
          last = outcome;
          break;
        }
        killed.add(outcome.pid);
        const store = await openSqliteStore(storePath);
        try {
          if (runId === undefined) {
            const fresh = (await store.listRuns({ limit: 1000 })).runs.filter((r) => !known.has(r.id));
            runId = fresh[0]?.id;
            if (runId === undefined) throw new Error('a run was killed before it was recorded');
            known.add(runId);
          }
          await classify(store, runId, log, outcome, tally);
          await freeLeaseOf(store, runId, outcome.pid);
        } finally {
          await store.close();
        }
      }
      const store = await openSqliteStore(storePath, { readonly: true });
      stores.push(store);
      const summary = await finalSummary(last, store, runId);
      runId ??= summary.runId;
      known.add(runId);
      expect(summary.runId).toBe(runId);
      const lines = readLog(log);
      const found = [
        ...(await checkEndings(store, runId, input, summary, counts)),
        ...(await checkSteps(store, runId, lines, killed, counts)),
        ...(await checkBudgets(store, runId, lines)),
        ...(await checkWaits(store, runId, lines, counts)),
      ];
      problems.push(...found.map((p) => `run ${runs} (${runId}): ${p}`));
    }
    console.log(
      `crash test, seed ${SEED}: ${runs} runs, ${processes} processes, ${tally.kills} kills ` +
        `(${tally.duringNode} during a node, ${tally.duringBackoff} during a back-off, ${tally.inWindow} between a ` +
        `step's side effect and its commit, ${tally.elsewhere} elsewhere); ${counts.committedSteps} committed steps, ` +
        `${counts.windowRepeats} run again after a kill in their window; ${counts.waits} waits checked, ` +
        `${counts.waitsAcrossRestart} across a restart; ${counts.repeatedEndEvents} ending events recorded twice`,
    );
    expect(problems).toEqual([]);
    expect(tally.kills).toBeGreaterThanOrEqual(KILLS);
    expect(tally.duringNode).toBeGreaterThan(0);
    expect(tally.duringBackoff).toBeGreaterThan(0);
    expect(tally.inWindow).toBeGreaterThan(0);
    expect(counts.waitsAcrossRestart).toBeGreaterThan(0);
  });
});
