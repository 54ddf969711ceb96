/**
 * Per-hop times of a BullMQ queue, read after a run from the queue's event stream (`<prefix>:<queue>:events`),
 * whose entry ids are Redis's own clock in ms, so times from every process compare. A hop is one BullMQ job:
 * one trip through the queue (added, taken by a worker, finished). For each job that finished in the run:
 * - service: from `active` (a worker took it) to `completed` or `failed` — what one hop costs a worker,
 *   Redis round trips included;
 * - sojourn: from `added` (or from `waiting` for a delayed job) to `completed` or `failed` — queueing
 *   included, so under a bulk load it grows with the backlog.
 */
import type { Redis } from 'ioredis';

/** The hops of one run. */
export interface Hops {
  /** Jobs that finished. */
  readonly jobs: number;
  readonly serviceMs: readonly number[];
  readonly sojournMs: readonly number[];
}

/** Keeps the whole event stream of a queue for one run (BullMQ trims it to 10,000 entries by default). */
export async function keepEvents(redis: Redis, prefix: string, queue: string): Promise<void> {
  await redis.hset(`${prefix}:${queue}:meta`, 'opts.maxLenEvents', 10_000_000);
}

/** The id of the last entry of a queue's event stream, so that a run's hops are read from after it. */
export async function lastEvent(redis: Redis, prefix: string, queue: string): Promise<string> {
  const last = (await redis.xrevrange(`${prefix}:${queue}:events`, '+', '-', 'COUNT', 1)) as [
    string,
    string[],
  ][];
  return last[0]?.[0] ?? '0-0';
}

/** Reads the jobs of a queue's event stream that finished after entry `after`, and their hop times. */
export async function readHops(redis: Redis, prefix: string, queue: string, after: string): Promise<Hops> {
  const key = `${prefix}:${queue}:events`;
  const added = new Map<string, number>();
  const active = new Map<string, number>();
  const serviceMs: number[] = [];
  const sojournMs: number[] = [];
  let start = `(${after}`;
  for (;;) {
    const page = (await redis.xrange(key, start, '+', 'COUNT', 10_000)) as [string, string[]][];
    for (const [id, fields] of page) {
      const at = Number(id.slice(0, id.indexOf('-')));
      const event = fieldOf(fields, 'event');
      const job = fieldOf(fields, 'jobId');
      if (job === undefined) continue;
      if (event === 'added' || (event === 'waiting' && !added.has(job))) added.set(job, at);
      else if (event === 'active') active.set(job, at);
      else if (event === 'completed' || event === 'failed') {
        const took = active.get(job);
        const came = added.get(job);
        if (took !== undefined) serviceMs.push(at - took);
        if (came !== undefined) sojournMs.push(at - came);
        added.delete(job);
        active.delete(job);
      }
    }
    if (page.length < 10_000) break;
    const last = (page.at(-1) as [string, string[]])[0];
    start = `(${last}`;
  }
  return { jobs: serviceMs.length, serviceMs, sojournMs };
}

function fieldOf(fields: readonly string[], name: string): string | undefined {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1];
  return undefined;
}

/** The `q`-quantile (0..1) of samples, nearest rank; NaN for none. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}
