/** The environment variable that puts every key `run --redis` and `worker` write under another prefix. */
export const REDIS_PREFIX_ENV = 'SWITCHYARD_REDIS_PREFIX';

/**
 * The key prefixes of the command line's Redis: the run store's, and the queue's and distributed runs'
 * below it; `$SWITCHYARD_REDIS_PREFIX` (default `switchyard:`) moves both, so that several installations
 * (or tests) share one Redis.
 * @example
 * redisPrefixes({}) // { store: 'switchyard:', dist: 'switchyard:dist' }
 */
export function redisPrefixes(env: NodeJS.ProcessEnv = process.env): { store: string; dist: string } {
  const base = env[REDIS_PREFIX_ENV];
  const store = base === undefined || base === '' ? 'switchyard:' : base;
  return { store, dist: `${store}dist` };
}
