import type { ParkedItem } from '../../awaits/desk.ts';
import { SwitchyardError } from '../../errors.ts';
import { systemClock } from '../../policy/clock.ts';
import { ENDED_STATUSES } from '../../store/query.ts';
import type { RunStatus, RunStore } from '../../store/types.ts';
import { printViewerUrl } from '../../ui/discovery.ts';
import { DEFAULT_LIMIT, type RunsCliOptions, STATUSES } from '../commands/runs.ts';
import { plural } from '../format.ts';
import type { CliIO } from '../io.ts';
import { displayPath } from '../output.ts';
import { redisPrefixes } from '../redis-prefix.ts';
import { parseAge } from '../runs/duration.ts';
import { runTable, runText } from '../runs/text.ts';
import { findRun, runRow, runView } from '../runs/views.ts';
import { openCliStore, storePathOf } from '../store-option.ts';

/** `--status a b` or `--status a,b` as statuses, each one of `allowed`; anything else is `E_USAGE`. */
function statusesOf(
  values: readonly string[] | undefined,
  allowed: readonly RunStatus[],
): RunStatus[] | undefined {
  if (values === undefined) return undefined;
  return values
    .flatMap((v) => v.split(','))
    .filter((v) => v !== '')
    .map((v) => {
      const found = allowed.find((s) => s === v);
      if (found === undefined)
        throw new SwitchyardError('E_USAGE', `--status ${v} is not allowed here: use ${allowed.join(', ')}`);
      return found;
    });
}

function limitOf(text: string | undefined): number {
  if (text === undefined) return DEFAULT_LIMIT;
  const n = Number(text);
  if (!(/^\d+$/u.test(text) && Number.isSafeInteger(n) && n > 0))
    throw new SwitchyardError('E_USAGE', `--limit ${text} is not a positive whole number`);
  return n;
}

/** Bytes for people: `512 B`, `12.0 KB`, `3.4 MB`. */
function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * Opens the store a command names (`--redis <url>`: the Redis run store under $SWITCHYARD_REDIS_PREFIX;
 * else the SQLite file), runs `use` on it and closes it. A Redis that does not answer is refused with one
 * line naming it.
 */
async function withStore<T>(
  io: CliIO,
  options: RunsCliOptions,
  write: boolean,
  use: (store: RunStore, shown: string) => Promise<T>,
): Promise<T> {
  const store = options.redis === undefined ? undefined : await openRedisRuns(options);
  if (store !== undefined) {
    try {
      return await use(store, store.location);
    } finally {
      await store.close();
    }
  }
  const path = storePathOf(options, process.env, io.cwd) as string;
  const sqlite = await openCliStore(path, { create: false, write, cwd: io.cwd });
  try {
    return await use(sqlite, displayPath(path, io.cwd));
  } finally {
    await sqlite.close();
  }
}

/** The command that lists the runs of the store `options` name (`shown`: a Redis URL without its password). */
function listCommand(options: RunsCliOptions, shown: string): string {
  return options.redis === undefined ? 'switchyard runs' : `switchyard runs --redis ${shown}`;
}

/** The Redis run store `--redis` names, under the prefix `run --redis` and `worker` record runs with. */
async function openRedisRuns(options: RunsCliOptions): Promise<RunStore> {
  if (options.store !== undefined) {
    throw new SwitchyardError('E_USAGE', '--store and --redis name two stores; give one of them');
  }
  // The Redis store's modules are loaded by the commands that open one.
  const { openRedisStore } = await import('../../store/redis.ts');
  return openRedisStore(options.redis as string, { prefix: redisPrefixes().store });
}

/** Carries out `switchyard runs`: the recorded runs, newest first, as a table or JSON. */
export async function listRunsAction(options: RunsCliOptions, io: CliIO): Promise<void> {
  const status = statusesOf(options.status, STATUSES);
  const limit = limitOf(options.limit);
  await withStore(io, options, false, async (store, shown) => {
    const page = await store.listRuns({
      limit,
      ...(status === undefined ? {} : { status }),
      ...(options.dag === undefined ? {} : { dag: options.dag }),
    });
    const rows = page.runs.map(runRow);
    const more = page.next !== undefined;
    if (options.json === true) io.out(JSON.stringify({ store: shown, runs: rows, more }, null, 2));
    else if (rows.length === 0) io.out(`no runs match in ${shown}`);
    else for (const line of runTable(rows, more)) io.out(line);
  });
}

/**
 * The items the workers on the Redis at `url` hold parked for run `id`, from its `parked` hash (under the
 * prefix `run --redis` and `worker` use); none for a run no workers carry.
 */
async function heldParked(url: string, id: string): Promise<ParkedItem[]> {
  const { connectRedis } = await import('../../store/redis-connect.ts');
  const { parkedItems } = await import('../../distributed/parked-items.ts');
  const { redis } = await connectRedis(url, {});
  try {
    return await parkedItems(redis, redisPrefixes().dist, id);
  } finally {
    await redis.quit().catch(() => undefined);
  }
}

/**
 * Carries out `switchyard runs show <id>`: one run item by item; with `--redis`, the items its workers hold
 * parked at awaits too.
 */
export async function showRunAction(id: string, options: RunsCliOptions, io: CliIO): Promise<void> {
  await withStore(io, options, false, async (store, shown) => {
    const answering =
      options.redis === undefined
        ? { storePath: storePathOf(options, process.env, io.cwd), cwd: io.cwd }
        : { redis: shown, cwd: io.cwd };
    const run = await findRun(store, id, shown, listCommand(options, shown));
    const held = options.redis === undefined ? [] : await heldParked(options.redis, id);
    const view = await runView(store, run, systemClock.wallNow(), answering, held);
    if (options.json === true) io.out(JSON.stringify(view, null, 2));
    else for (const line of runText(view, io.cwd)) io.out(line);
    if (options.json !== true && options.redis === undefined)
      printViewerUrl(io.out, storePathOf(options, process.env, io.cwd), view.id);
  });
}

/** Carries out `switchyard runs events <id>`: the run's recorded events as JSONL. */
export async function runEventsAction(id: string, options: RunsCliOptions, io: CliIO): Promise<void> {
  await withStore(io, options, false, async (store, shown) => {
    await findRun(store, id, shown, listCommand(options, shown));
    for await (const event of store.streamEvents(id)) io.out(JSON.stringify(event.body));
  });
}

/** Carries out `switchyard runs prune --older-than <age>`: deletes old ended runs and gives the space back. */
export async function pruneRunsAction(options: RunsCliOptions, io: CliIO): Promise<void> {
  const age = parseAge(options.olderThan ?? '', '--older-than');
  // A waiting run is pruned only when named: it holds items that wait for answers.
  const statuses = statusesOf(options.status, [...ENDED_STATUSES, 'waiting']) ?? ENDED_STATUSES;
  const olderThan = systemClock.wallNow() - age;
  await withStore(io, options, true, async (store, shown) => {
    const result = await store.prune({ olderThan, statuses });
    io.out(
      `pruned ${plural(result.runs, 'run')} created before ${new Date(olderThan).toISOString()} from ${shown}; reclaimed ${formatBytes(result.reclaimedBytes)}`,
    );
  });
}

/**
 * Carries out `switchyard runs abort <id> --redis <url>`: aborts a run carried by workers on that Redis and
 * waits for it to end (unless `--no-wait`). A run in the SQLite store is carried by the process that started
 * it, which no other process can signal: refused with one line saying how to stop it.
 */
export async function abortRunAction(id: string, options: RunsCliOptions, io: CliIO): Promise<void> {
  if (options.redis === undefined) {
    throw new SwitchyardError(
      'E_USAGE',
      'runs abort needs --redis <url>: a run in the SQLite store is carried by the process that started it; stop it there with Ctrl-C (it stays resumable with `switchyard resume`)',
    );
  }
  const url = options.redis;
  const { abortRun } = await import('../../distributed/abort.ts');
  const { DEFAULT_QUEUE } = await import('../../distributed/worker.ts');
  const { connectRedis } = await import('../../store/redis-connect.ts');
  const { Queue } = await import('bullmq');
  await withStore(io, options, true, async (store, shown) => {
    const { redis } = await connectRedis(url, {});
    const prefix = redisPrefixes().dist;
    const queue = new Queue(options.queue ?? DEFAULT_QUEUE, { connection: redis, prefix });
    try {
      const outcome = await abortRun(
        { redis, queue, prefix, store, clock: systemClock },
        id,
        options.reason,
        options.wait === false ? 0 : undefined,
      );
      const taken = `${plural(outcome.removed, 'waiting item')} taken off the queue`;
      if (outcome.status === 'aborted') io.out(`run ${id} aborted in ${shown}; ${taken}`);
      else if (outcome.status === 'running') {
        io.out(
          `abort of run ${id} recorded in ${shown}; ${taken}; the run ends once the workers end the items they hold and run its post phases, if it has any: switchyard runs show ${id} --redis ${shown}`,
        );
      } else io.out(`run ${id} ended ${outcome.status} before the abort reached any of its items`);
    } finally {
      await queue.close();
      await redis.quit().catch(() => undefined);
    }
  });
}
