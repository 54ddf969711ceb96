/**
 * The Redis the distributed benchmark measures on: a redis-server of its own on a free port (no persistence,
 * nothing else talking to it), so that its command counts and CPU time are the benchmark's alone; or, when
 * `SWITCHYARD_BENCH_REDIS` names one, that server (shared: its figures then include whatever else uses it).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

/** What Redis did between two snapshots. */
export interface RedisUsage {
  /** Commands processed, counting those a Lua script calls (INFO's total_commands_processed). */
  readonly commands: number;
  /** Lua scripts run (EVAL, EVALSHA, FCALL): each is one round trip for a client, many commands inside. */
  readonly scripts: number;
  /** CPU time the server spent, ms (user + system). */
  readonly cpuMs: number;
  /** Bytes clients sent to the server. */
  readonly bytesIn: number;
  /** Calls per command name. */
  readonly byCommand: ReadonlyMap<string, number>;
}

/** A snapshot of a server's counters. */
export interface RedisCounters {
  readonly commands: number;
  readonly cpuMs: number;
  readonly bytesIn: number;
  readonly byCommand: ReadonlyMap<string, number>;
}

/** The Redis a benchmark runs on. */
export interface BenchRedis {
  readonly url: string;
  /** True when the server is the benchmark's own. */
  readonly own: boolean;
  /** A connection for the benchmark's own reads. */
  readonly client: Redis;
  counters(): Promise<RedisCounters>;
  /** Closes the connection and stops the server when it is the benchmark's own. */
  stop(): Promise<void>;
}

const SCRIPT_COMMANDS = new Set(['eval', 'evalsha', 'eval_ro', 'evalsha_ro', 'fcall', 'fcall_ro']);

/** What Redis did from `before` to `after`. */
export function usageBetween(before: RedisCounters, after: RedisCounters): RedisUsage {
  const byCommand = new Map<string, number>();
  let scripts = 0;
  for (const [name, calls] of after.byCommand) {
    const delta = calls - (before.byCommand.get(name) ?? 0);
    if (delta <= 0) continue;
    byCommand.set(name, delta);
    if (SCRIPT_COMMANDS.has(name)) scripts += delta;
  }
  return {
    commands: after.commands - before.commands,
    scripts,
    cpuMs: after.cpuMs - before.cpuMs,
    bytesIn: after.bytesIn - before.bytesIn,
    byCommand,
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

async function countersOf(client: Redis): Promise<RedisCounters> {
  const [stats, cpu, commandStats] = await Promise.all([
    client.info('stats'),
    client.info('cpu'),
    client.info('commandstats'),
  ]);
  const field = (text: string, name: string) =>
    Number(new RegExp(`${name}:([\\d.]+)`, 'u').exec(text)?.[1] ?? 0);
  const byCommand = new Map<string, number>();
  for (const match of commandStats.matchAll(/cmdstat_([^:]+):calls=(\d+)/gu)) {
    byCommand.set(match[1] as string, Number(match[2]));
  }
  return {
    commands: field(stats, 'total_commands_processed'),
    cpuMs: (field(cpu, 'used_cpu_user') + field(cpu, 'used_cpu_sys')) * 1000,
    bytesIn: field(stats, 'total_net_input_bytes'),
    byCommand,
  };
}

async function answers(url: string): Promise<Redis | undefined> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return client;
  } catch {
    client.disconnect();
    return undefined;
  }
}

/** Starts a redis-server on a free port and waits until it answers; undefined when none can be started. */
async function startOwn(): Promise<{ url: string; server: ChildProcess; client: Redis } | undefined> {
  const port = await freePort();
  const server = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
    { stdio: 'ignore' },
  );
  // No redis-server on the PATH: the spawn fails, and the shared Redis is used instead.
  let failed = false;
  server.once('error', () => {
    failed = true;
  });
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 50; i++) {
    const client = await answers(url);
    if (client !== undefined) return { url, server, client };
    if (failed || server.exitCode !== null) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  server.kill('SIGKILL');
  return undefined;
}

/**
 * The benchmark's Redis: `SWITCHYARD_BENCH_REDIS` when set, else a redis-server of its own, else the shared
 * one on 127.0.0.1:6379; undefined when none answers.
 */
export async function benchRedis(): Promise<BenchRedis | undefined> {
  const named = process.env.SWITCHYARD_BENCH_REDIS;
  const own = named === undefined ? await startOwn() : undefined;
  if (own !== undefined) {
    return {
      url: own.url,
      own: true,
      client: own.client,
      counters: () => countersOf(own.client),
      async stop() {
        await own.client.shutdown('NOSAVE').catch(() => undefined);
        own.client.disconnect();
        if (own.server.exitCode === null && own.server.signalCode === null) {
          const exited = once(own.server, 'exit');
          own.server.kill('SIGTERM');
          await exited;
        }
      },
    };
  }
  const url = named ?? 'redis://127.0.0.1:6379';
  const client = await answers(url);
  if (client === undefined) return undefined;
  return {
    url,
    own: false,
    client,
    counters: () => countersOf(client),
    async stop() {
      await client.quit().catch(() => undefined);
    },
  };
}
