import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ItemState } from '../runtime/item-state.ts';
import type { ChildResult } from '../runtime/kinds/gather.ts';
import type { ChildOf } from './job-data.ts';
import { entryTag } from './keys.ts';
import { evalScript } from './scripts.ts';

/**
 * The gather record of one scatter execution (or of one embed execution, a scatter of one child), a Redis
 * hash: the parent item as it left for its children (`parent`), how many children are still running
 * (`left`), and each child's result (`r:<index>`) with the order it settled in (`o:<index>`). Children end
 * on any worker; the record makes the gather happen once.
 */
export interface ParentAtScatter {
  readonly at: string;
  readonly dag?: string;
  readonly state: ItemState;
  readonly delays: readonly (readonly [string, number])[];
  /** Present when the parent is itself a child (of a scatter over a document, or of an embed). */
  readonly child?: ChildOf;
  /** Wall time the scatter placement started, for its `placement.end`. */
  readonly startedWall: number;
}

/**
 * Lua: records one child's result on gather record `key` and counts it off: the result is written only if
 * this index has none yet (a child job run again after its worker died counts once), and the function
 * answers how many children are left, so exactly the ending that takes `left` to 0 (or a repeat of it) adds
 * the gathered job, whose fixed id makes a repeat a no-op. Run by {@link COMPLETE_CHILD} (an aborted run's
 * children); a job's report counts its child off the same way with {@link COUNT_OFF_MANY}.
 */
export const COUNT_OFF = `
local function countOff(key, index, result)
  if redis.call('HSETNX', key, 'r:' .. index, result) == 1 then
    local order = redis.call('HINCRBY', key, 'order', 1) - 1
    redis.call('HSET', key, 'o:' .. index, order)
    return redis.call('HINCRBY', key, 'left', -1)
  end
  return tonumber(redis.call('HGET', key, 'left'))
end
`;

/**
 * Lua: counts children off gather records as {@link COUNT_OFF} does, for a script that counts many (a batch
 * of job reports, see `report-write.ts`): each record's `order` and `left` are read once, and written once,
 * with the orders of the children counted, by `writeCounts()` at the end of the script.
 */
export const COUNT_OFF_MANY = `
local counting = {}
local function countOffMany(key, index, result)
  local record = counting[key]
  if not record then
    local head = redis.call('HMGET', key, 'order', 'left')
    record = {order = tonumber(head[1]) or 0, left = tonumber(head[2]) or 0, fields = {}}
    counting[key] = record
  end
  if redis.call('HSETNX', key, 'r:' .. index, result) == 1 then
    local fields = record.fields
    fields[#fields + 1] = 'o:' .. index
    fields[#fields + 1] = record.order
    record.order = record.order + 1
    record.left = record.left - 1
  end
  return record.left
end
local function writeCounts()
  for key, record in pairs(counting) do
    local fields = record.fields
    if #fields > 0 then
      redis.call('HSET', key, 'order', record.order, 'left', record.left)
      for i = 1, #fields, 200 do
        redis.call('HSET', key, unpack(fields, i, math.min(i + 199, #fields)))
      end
    end
  end
end
`;

/** Counts one child off (see {@link COUNT_OFF}). KEYS: the record. ARGV: the child's index, its result. */
const COMPLETE_CHILD = `${COUNT_OFF}
return countOff(KEYS[1], ARGV[1], ARGV[2])
`;

/**
 * The key of the gather record of one entry into the scatter or embed `placement` (of document `dag`): by
 * `parent`'s id, its visit of the placement, and the entries of every embed and scatter the parent is
 * inside (see {@link entryTag}). Each entry at any depth has a record of its own: a parent made again by a
 * later entry of an outer embed or scatter starts its visits again at 1, and must not find the record of
 * the earlier entry (whose children are counted, and whose gathered job has run).
 */
export function gatherKey(runBase: string, dag: string, parent: ItemState, placement: string, visit: number) {
  return `${runBase}:gather:${dag}#${placement}:${parent.id}:${visit}${entryTag(parent.frames)}`;
}

/** The BullMQ job id of the gathered job of a record: fixed, so adding it twice adds it once. */
export function gatheredJobId(key: string): string {
  return `gathered-${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;
}

/**
 * Writes a gather record before the children's jobs are added, and lists it in the run's set of records
 * (deleted with the run). Written only once: a scatter job run again after its worker died keeps the
 * record it wrote, so the children counted against it stay counted. Answers the indexes of the children
 * counted already (none for a new record), whose jobs a scatter run again does not add again.
 */
export async function openGather(
  redis: Redis,
  key: string,
  records: string,
  parent: ParentAtScatter,
  children: number,
): Promise<ReadonlySet<number>> {
  const answers = await redis
    .multi()
    .hsetnx(key, 'parent', JSON.stringify(parent))
    .hsetnx(key, 'left', String(children))
    .sadd(records, key)
    .exec();
  if (answers?.[0]?.[1] === 1) return new Set();
  const fields = await redis.hkeys(key);
  const counted = new Set<number>();
  for (const field of fields) if (field.startsWith('r:')) counted.add(Number(field.slice(2)));
  return counted;
}

/**
 * Counts a child's result off; answers how many children are left (0: this one was the last). A scatter
 * child's result is a {@link ChildResult} without its order; an embed's child's is an `EmbedResult`.
 */
export async function completeChild(
  redis: Redis,
  key: string,
  index: number,
  result: object,
): Promise<number> {
  const left = await evalScript(redis, COMPLETE_CHILD, 1, key, String(index), JSON.stringify(result));
  return Number(left);
}

/** The parent on gather record `key` (see {@link ParentAtScatter}); undefined when the record is gone. */
export async function readParent(redis: Redis, key: string): Promise<ParentAtScatter | undefined> {
  const text = await redis.hget(key, 'parent');
  return text === null ? undefined : (JSON.parse(text) as ParentAtScatter);
}

/**
 * The parent and every child's result, in index order, once no child is left. The results are as the
 * children wrote them (see {@link completeChild}) with their index and order.
 */
export async function readGather(
  redis: Redis,
  key: string,
): Promise<{ readonly parent: ParentAtScatter; readonly results: ChildResult[] } | undefined> {
  // The reply as field, value pairs (ioredis makes an object of `hgetall` only): a record holds two fields
  // per child, too many for an object's keys to be cheap.
  const reply = (await redis.call('HGETALL', key)) as string[] | Record<string, string>;
  const pairs = Array.isArray(reply) ? reply : Object.entries(reply).flat();
  let parent: string | undefined;
  let left: string | undefined;
  const texts: string[] = [];
  const orders: number[] = [];
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const field = pairs[i] as string;
    const value = pairs[i + 1] as string;
    if (field.startsWith('r:')) texts[Number(field.slice(2))] = value;
    else if (field.startsWith('o:')) orders[Number(field.slice(2))] = Number(value);
    else if (field === 'parent') parent = value;
    else if (field === 'left') left = value;
  }
  if (parent === undefined || left !== '0') return undefined;
  const results: ChildResult[] = [];
  texts.forEach((text, index) => {
    const result = JSON.parse(text) as Omit<ChildResult, 'order'> & { index: number; order: number };
    result.index = index;
    result.order = orders[index] ?? 0;
    results.push(result);
  });
  return { parent: JSON.parse(parent) as ParentAtScatter, results };
}
