/**
 * Lua scripts sent by their SHA-1 (EVALSHA), so that a script on the hot path of every job costs its
 * arguments on the wire, not its text; a Redis that does not have the script yet (a restart, a flush) is
 * sent the text once (EVAL), which caches it again.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

const shas = new Map<string, string>();

function shaOf(script: string): string {
  let sha = shas.get(script);
  if (sha === undefined) {
    sha = createHash('sha1').update(script).digest('hex');
    shas.set(script, sha);
  }
  return sha;
}

/** Runs `script` with `keys` keys first in `args`, by its SHA-1 when Redis has it. */
export async function evalScript(
  redis: Redis,
  script: string,
  keys: number,
  ...args: (string | number)[]
): Promise<unknown> {
  try {
    return await redis.evalsha(shaOf(script), keys, ...args);
  } catch (error) {
    if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
    return redis.eval(script, keys, ...args);
  }
}
