/**
 * A refusal of `run` or `resume` is one line, whatever refuses: a node module that lacks a node the document
 * names (checked against the document file, or, when that file is gone, by the engine against the document
 * recorded with the run). The run to resume is stopped by a Ctrl-C that one of its own nodes sends, in a
 * real child process.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SWITCHYARD } from '../cli-entry.ts';
import { runCli } from './run-cli.ts';

const GREET = fileURLToPath(new URL('../package/fixtures/greet.jsonld', import.meta.url));

// The check sends the process a Ctrl-C and waits for the run's abort: the run is recorded as aborted at
// `check`, and can be resumed.
const STOPPING = `
export const nodes = [
  { id: 'urn:example:node:draft', outputs: ['drafted'], run: () => 'drafted' },
  {
    id: 'urn:example:node:check',
    outputs: ['ok', 'again'],
    run: (_item, ctx) => {
      process.kill(process.pid, 'SIGINT');
      return new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve('ok')));
    },
  },
];
`;
const WHOLE = `
export const nodes = [
  { id: 'urn:example:node:draft', outputs: ['drafted'], run: () => 'drafted' },
  { id: 'urn:example:node:check', outputs: ['ok', 'again'], run: () => 'ok' },
];
`;
const WITHOUT_CHECK = `export const nodes = [{ id: 'urn:example:node:draft', outputs: ['drafted'], run: () => 'drafted' }];\n`;

let dir: string;
let runId: string;

/** Runs `switchyard` from the sources in `dir` as its own process. */
function switchyard(args: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...SWITCHYARD, ...args],
      { cwd: dir, env: { ...process.env, SWITCHYARD_STORE: '' }, encoding: 'utf8' },
      (error, out, err) => resolve({ code: error === null ? 0 : Number(error.code ?? 1), out, err }),
    );
  });
}

/** The lines written to stderr. */
const lines = (err: string): string[] => err.trimEnd().split('\n');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-refusals-'));
  await copyFile(GREET, join(dir, 'greet.jsonld'));
  await writeFile(join(dir, 'stopping.mjs'), STOPPING);
  await writeFile(join(dir, 'whole.mjs'), WHOLE);
  await writeFile(join(dir, 'without-check.mjs'), WITHOUT_CHECK);
  const stopped = await switchyard(['run', 'greet.jsonld', '--nodes', 'stopping.mjs', '--store', 'runs.db']);
  expect(stopped.code, stopped.err).toBe(1);
  const resume = /switchyard resume (\S+) --nodes stopping\.mjs/u.exec(stopped.err);
  expect(resume, stopped.err).not.toBeNull();
  runId = resume?.[1] as string;
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a node module that lacks a node the document names', () => {
  it('is refused by run in one line, at the place the document names the node', async () => {
    const result = await runCli(['run', 'greet.jsonld', '--nodes', 'without-check.mjs', '--no-store'], dir);
    expect(result.code).toBe(1);
    expect(lines(result.err)).toEqual([
      expect.stringMatching(
        /^switchyard: greet\.jsonld:\d+:\d+ error E_UNKNOWN_NODE placement 'check' names node 'urn:example:node:check', which no loaded module registers; /u,
      ),
    ]);
  });

  it('is refused by resume in one line', async () => {
    const result = await runCli(['resume', runId, '--nodes', 'without-check.mjs', '--store', 'runs.db'], dir);
    expect(result.code).toBe(1);
    expect(lines(result.err)).toEqual([
      expect.stringMatching(/^switchyard: greet\.jsonld:\d+:\d+ error E_UNKNOWN_NODE placement 'check' /u),
    ]);
  });

  it('is refused by resume in one line when the document file is gone, without saying the run goes on', async () => {
    await rename(join(dir, 'greet.jsonld'), join(dir, 'greet.away'));
    try {
      const result = await runCli(
        ['resume', runId, '--nodes', 'without-check.mjs', '--store', 'runs.db'],
        dir,
      );
      expect(result.code).toBe(1);
      expect(lines(result.err)).toEqual([
        expect.stringMatching(/^switchyard: .*urn:example:node:check.*\(E_NODE_NOT_REGISTERED\)$/u),
      ]);
      // With every node, the resume goes on with the recorded document, and says so.
      const whole = await runCli(['resume', runId, '--nodes', 'whole.mjs', '--store', 'runs.db'], dir);
      expect(whole.code, whole.err).toBe(0);
      expect(lines(whole.err)).toEqual([
        `switchyard: greet.jsonld is gone; run ${runId} goes on with the document recorded with it`,
      ]);
      expect(whole.out).toContain(`resumed run ${runId}: completed`);
    } finally {
      await rename(join(dir, 'greet.away'), join(dir, 'greet.jsonld'));
    }
  });
});
