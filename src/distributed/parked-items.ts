import type { Redis } from 'ioredis';
import type { ParkedItem } from '../awaits/desk.ts';
import type { ParkRecord } from './await-park.ts';
import { runKeys } from './keys.ts';

/**
 * The items of a distributed run parked at await placements now, from its `parked` hash: input items and
 * scatter or embed children alike (children have no checkpoint in the run store), in token order.
 * @example
 * const parked = await parkedItems(redis, 'switchyard:dist', runId);
 */
export async function parkedItems(redis: Redis, prefix: string, runId: string): Promise<ParkedItem[]> {
  const records = await redis.hvals(runKeys(prefix, runId).parked);
  return records
    .map((text) => (JSON.parse(text) as ParkRecord).parked)
    .sort((a, b) => (a.token < b.token ? -1 : a.token > b.token ? 1 : 0));
}
