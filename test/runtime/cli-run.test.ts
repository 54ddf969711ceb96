import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.ts';
import { DAGS } from './helpers.ts';

const FIXTURE = fileURLToPath(new URL('../fixtures/nodes/compose-validate.ts', import.meta.url));
const EMPTY = fileURLToPath(new URL('../fixtures/nodes/empty.ts', import.meta.url));

/** Runs `switchyard run …` the way main.ts does: user mistakes are one line and exit 1. */
/** Runs `switchyard run …` through the CLI's own entry point, output lines joined without a final newline. */
async function cli(args: string[], cwd: string) {
  const result = await runCli(['run', ...args], cwd);
  return { code: result.code, out: result.out.trimEnd(), err: result.err.trimEnd() };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-run-'));
  await copyFile(join(DAGS, 'compose-validate.jsonld'), join(dir, 'compose-validate.jsonld'));
  const policy = { defaults: { backoff: { strategy: 'constant', baseMs: 1, capMs: 1 }, jitter: 'none' } };
  await writeFile(join(dir, 'compose-validate.policy.json'), JSON.stringify(policy));
});

describe('switchyard run', () => {
  it('runs the DAG, prints a summary and writes the events as JSONL with monotonic seq', async () => {
    const { out, code } = await cli(
      [
        'compose-validate.jsonld',
        '--nodes',
        FIXTURE,
        '--input',
        '[{"topic":"whales"},{"topic":"owls"}]',
        '--events',
        'events.jsonl',
      ],
      dir,
    );
    expect(code).toBe(0);
    expect(out).toContain('completed');
    expect(out).toContain('done (completed): 2 items');
    expect(out).toContain('2 retries');
    expect(out).toContain('policy: compose-validate.policy.json');
    const lines = (await readFile(join(dir, 'events.jsonl'), 'utf8')).trim().split('\n');
    const events = lines.map((l) => JSON.parse(l) as { seq: number; type: string });
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
    expect(events[0]?.type).toBe('run.start');
    expect(events.at(-1)?.type).toBe('run.end');
  });

  it('prints JSON with --json and exits 1 when an item fails', async () => {
    const { out, code } = await cli(
      ['compose-validate.jsonld', '--nodes', FIXTURE, '--input', '{"topic":"unroutable"}', '--json'],
      dir,
    );
    expect(code).toBe(1);
    const result = JSON.parse(out) as { status: string; failures: { error: { code: string } }[] };
    expect(result.status).toBe('failed');
    expect(result.failures[0]?.error.code).toBe('E_UNROUTED_OUTPUT');
  });

  it('reads the input from a file', async () => {
    await writeFile(join(dir, 'input.json'), '{"topic":"bees"}');
    const { code, out } = await cli(
      ['compose-validate.jsonld', '--nodes', FIXTURE, '--input', '@input.json', '--virtual-time'],
      dir,
    );
    expect(code).toBe(0);
    expect(out).toContain('done (completed): 1 item');
  });

  it('says one clear line for bad input, a missing module and a module without nodes', async () => {
    const bad = await cli(['compose-validate.jsonld', '--nodes', FIXTURE, '--input', '{oops'], dir);
    expect([bad.code, bad.err.split('\n').length]).toEqual([1, 1]);
    expect(bad.err).toMatch(/--input is not JSON/);
    const missing = await cli(['compose-validate.jsonld', '--nodes', 'nowhere.ts'], dir);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/no such node module/);
    const empty = await cli(['compose-validate.jsonld', '--nodes', EMPTY], dir);
    expect(empty.code).toBe(1);
    expect(empty.err).toMatch(/exports no nodes/);
    const usage = await cli(['compose-validate.jsonld'], dir);
    expect(usage.code).toBe(2);
  });

  it('refuses a document with errors, one line per problem', async () => {
    const doc = JSON.parse(await readFile(join(DAGS, 'compose-validate.jsonld'), 'utf8'));
    doc.placements[0].routes[0].to = 'nowhere';
    await writeFile(join(dir, 'broken.jsonld'), JSON.stringify(doc));
    const { code, err } = await cli(['broken.jsonld', '--nodes', FIXTURE], dir);
    expect(code).toBe(1);
    expect(err).toContain('E_DANGLING_ROUTE');
  });
});
