/**
 * `switchyard ui` as a user runs it: one line and a non-zero exit for each mistake on the command line; once
 * started, its URL printed, `runs show` printing the run's page, and Ctrl-C stopping it cleanly.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SWITCHYARD } from '../cli-entry.ts';
import { ROOT, recordRuns, tempFolder } from './helpers.ts';

const run = promisify(execFile);
const temp = tempFolder();
const storePath = join(temp.path, 'runs.db');
let runIds: string[];

/** Runs `switchyard …` to its end: exit code, stdout and stderr. */
async function switchyard(args: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...SWITCHYARD, ...args], { cwd: ROOT });
    return { code: 0, out: stdout, err: stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout, err: e.stderr };
  }
}

/** Starts `switchyard ui …` and resolves with the process and its first line, the URL line. */
function startUi(args: readonly string[]): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, [...SWITCHYARD, 'ui', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve({ child, line: out.split('\n')[0] as string });
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on('exit', (code) => reject(new Error(`switchyard ui ended (${code}) before serving: ${err}`)));
  });
}

beforeAll(async () => {
  runIds = await recordRuns(storePath, 2);
}, 30_000);

afterAll(() => temp.remove());

describe('switchyard ui', () => {
  it.each([
    [['--port', 'http'], /^switchyard: --port http is not a port number/u],
    [['--port', '70000'], /^switchyard: --port 70000 is not a port number/u],
    [['--dags', 'no-such-folder'], /^switchyard: --dags no-such-folder is not a folder/u],
    [['--host', ''], /^switchyard: --host is empty/u],
    [['--colour'], /unknown option '--colour'/u],
  ])('refuses %j with one line and exit 2', async (args, line) => {
    const { code, err } = await switchyard(['ui', ...args, '--store', storePath]);
    expect(code).toBe(2);
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toMatch(line);
  });

  it('says in one line to install mermaid when it is missing', async () => {
    const hide = join(ROOT, 'test/ui/fixtures/hide-mermaid.mjs');
    const result = await run(process.execPath, ['--import', hide, ...SWITCHYARD, 'ui', '--port', '0'], {
      cwd: ROOT,
    }).catch((error: { code: number; stderr: string }) => error);
    expect('code' in result ? result.code : 0).toBe(1);
    expect(result.stderr).toBe(
      'switchyard: the web viewer draws diagrams with the package mermaid, which is not installed: run `npm install mermaid` (E_MISSING_PACKAGE)\n',
    );
  });

  it('serves, links runs from `runs show`, refuses a port in use, and stops on Ctrl-C', async () => {
    const { child, line } = await startUi(['--port', '0', '--store', storePath, '--dags', 'dags']);
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const url = /(http:\/\/127\.0\.0\.1:\d+)\//u.exec(line)?.[1] as string;
      expect(line).toMatch(/shows dags and .*runs\.db \(read-only; Ctrl-C to stop\)$/u);
      const meta = (await (await fetch(`${url}/api/meta`)).json()) as { readOnly: boolean };
      expect(meta.readOnly).toBe(true);
      expect(existsSync(`${storePath}.ui.json`)).toBe(true);

      const id = runIds[0] as string;
      const shown = await switchyard(['runs', 'show', id, '--store', storePath]);
      expect(shown.code).toBe(0);
      expect(shown.out.trim().split('\n').at(-1)).toBe(`view it at ${url}/runs/${id}`);
      const json = await switchyard(['runs', 'show', id, '--store', storePath, '--json']);
      expect(() => JSON.parse(json.out)).not.toThrow();

      const port = new URL(url).port;
      const busy = await switchyard(['ui', '--port', port, '--store', storePath]);
      expect(busy.code).toBe(2);
      expect(busy.err.trim()).toBe(
        `switchyard: port ${port} on 127.0.0.1 is in use: pass --port <n>, or --port 0 for any free port (E_USAGE)`,
      );
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    expect(existsSync(`${storePath}.ui.json`)).toBe(false);
    const after = await switchyard(['runs', 'show', runIds[0] as string, '--store', storePath]);
    expect(after.out).not.toContain('view it at');
  }, 60_000);

  // An address of this machine other than loopback, if it has one.
  const outside = Object.values(networkInterfaces())
    .flat()
    .find((a) => a !== undefined && !a.internal && a.family === 'IPv4')?.address;

  it.skipIf(outside === undefined)(
    'listens on 127.0.0.1 only by default',
    async () => {
      const { child, line } = await startUi(['--port', '0', '--store', storePath]);
      try {
        const port = Number(/:(\d+)\//u.exec(line)?.[1]);
        expect((await fetch(`http://127.0.0.1:${port}/api/meta`)).status).toBe(200);
        const refused = await new Promise<string>((resolve) => {
          const socket = connect(port, outside as string);
          socket.once('connect', () => {
            socket.destroy();
            resolve('connected');
          });
          socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
        });
        expect(refused).toBe('ECONNREFUSED');
      } finally {
        child.kill('SIGINT');
      }
    },
    30_000,
  );
});
