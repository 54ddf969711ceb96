import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { turnOf } from '../../examples/archivist/conversation.ts';
import { ASK_DAG } from '../../examples/archivist/paths.ts';
import type { AskData } from '../../nodes/archivist/services.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import type { RunRecord, RunStore } from '../../src/store/types.ts';
import { ARCHIVIST, SWITCHYARD } from '../cli-entry.ts';
import { runMain } from './run-main.ts';

const FIRST = 'Nineteen Eighty-Four by George Orwell';
const FOLLOW_UP = 'something shorter by the same author';

const folder = () => mkdtempSync(join(tmpdir(), 'archivist-store-'));
// Piped input is not echoed, so an answer follows the prompt on its line.
const answers = (text: string) =>
  text
    .split('\n')
    .map((line) => line.replace(/^(you> )+/, ''))
    .filter((line) => line.startsWith('archivist> '));

const open: RunStore[] = [];
const children: ChildProcessWithoutNullStreams[] = [];
let server: Server | undefined;
afterEach(async () => {
  for (const store of open.splice(0)) await store.close();
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

async function readStore(file: string): Promise<RunStore> {
  const store = await openSqliteStore(file, { readonly: true });
  open.push(store);
  return store;
}

/** A running `archivist chat`: its stdout so far, a wait on it, its questions, its end. */
interface Chat {
  readonly child: ChildProcessWithoutNullStreams;
  out(): string;
  err(): string;
  /** Resolves once stdout satisfies `done`; rejects when the process ends first. */
  until(done: (out: string) => boolean): Promise<string>;
  say(line: string): void;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function chat(args: readonly string[], cwd: string, env: Record<string, string> = {}): Chat {
  const child = spawn(process.execPath, [...ARCHIVIST, 'chat', ...args], {
    cwd,
    // The store in the test's own folder, never the data folder of the user running the tests.
    env: { ...process.env, SWITCHYARD_STORE: '', ARCHIVIST_STORE: join(cwd, '.switchyard/runs.db'), ...env },
  });
  children.push(child);
  let out = '';
  let err = '';
  const waiters: (() => void)[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (const wake of waiters.splice(0)) wake();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      resolve({ code, signal });
      for (const wake of waiters.splice(0)) wake();
    }),
  );
  return {
    child,
    out: () => out,
    err: () => err,
    until(done) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (done(out)) resolve(out);
          else if (child.exitCode !== null || child.signalCode !== null) {
            reject(new Error(`the chat ended first; stdout:\n${out}\nstderr:\n${err}`));
          } else waiters.push(check);
        };
        check();
      });
    },
    say: (line) => child.stdin.write(`${line}\n`),
    exited,
  };
}

/** The runs of the ask DAG that are turns of a conversation, by turn. */
async function turns(store: RunStore): Promise<RunRecord[]> {
  const { runs } = await store.listRuns({ dag: ASK_DAG });
  return runs
    .filter((run) => turnOf(run) !== undefined)
    .sort((a, b) => (turnOf(a)?.turn ?? 0) - (turnOf(b)?.turn ?? 0));
}

async function endData(store: RunStore, runId: string): Promise<AskData> {
  return (await store.getCheckpoint(runId, '1'))?.state.data as AskData;
}

describe('archivist ask records its run', () => {
  it('in the store: the run, the path it took and the terminal that gave the answer', async () => {
    const file = join(folder(), 'runs.db');
    const run = await runMain(['ask', '--json', '--store', file, 'books by George Orwell']);
    expect(run.code).toBe(0);
    const json = JSON.parse(run.out) as { runId: string; answer: string };
    expect(json.runId).toMatch(/^[0-9a-f-]{36}$/);

    const store = await readStore(file);
    const record = await store.getRun(json.runId);
    expect(record).toMatchObject({
      status: 'completed',
      dag: { iri: ASK_DAG },
      input: [{ question: 'books by George Orwell' }],
    });
    const root = await store.getCheckpoint(json.runId, '1');
    expect(root?.ending).toEqual({ kind: 'terminal', placement: 'answered', outcome: 'completed' });
    expect((root?.state.data as AskData | undefined)?.answer).toBe(json.answer);

    const events = (await store.readEvents(json.runId)).map((e) => e.body as Record<string, unknown>);
    const visited = events.filter((e) => e.type === 'placement.start').map((e) => e.placement);
    for (const placement of ['read', 'classify', 'plan', 'search', 'merge', 'rank', 'answer', 'respond']) {
      expect(visited).toContain(placement);
    }
    expect(events.at(-1)).toMatchObject({ type: 'run.end' });
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'item.end', item: '1', terminal: 'answered' }),
    );

    const shown = execFileSync(
      process.execPath,
      [...SWITCHYARD, 'runs', 'show', json.runId, '--store', file],
      {
        encoding: 'utf8',
      },
    );
    expect(shown).toContain(json.runId);
    expect(shown).toMatch(/item 1 +ended at terminal answered \(completed\)/);
    // The record says what the reader asked and what the Archivist answered.
    expect(shown).toContain('data.question "books by George Orwell"');
    expect(shown).toContain(`data.answer ${JSON.stringify(json.answer)}`);
    expect(shown).not.toContain('item 1.0  ended at terminal search (completed)\n  data.');
  });

  it('prints the same answer with or without a store, and --trace names the run on stderr', async () => {
    const cwd = folder();
    const question = 'recommend something like Dune';
    const bare = await runMain(['ask', '--no-store', question], { cwd });
    const recorded = await runMain(['ask', question], { cwd });
    expect(recorded.out).toBe(bare.out);
    expect(recorded.err).toBe('');
    const traced = await runMain(['ask', '--trace', question], { cwd });
    const id = /run ([0-9a-f-]{36}) is recorded in \.switchyard\/runs\.db/.exec(traced.err)?.[1];
    expect(id, traced.err).toBeDefined();
    expect(traced.err).toContain(`switchyard runs show ${id} --store .switchyard/runs.db`);
  });

  it('records into the XDG data folder by default, wherever it is started, and where it is told otherwise', async () => {
    const bare = folder();
    expect((await runMain(['ask', '--no-store', 'books by George Orwell'], { cwd: bare })).code).toBe(0);
    expect(readdirSync(bare)).toEqual([]);

    // $XDG_DATA_HOME/archivist/runs.db, and nothing in the folder it was started from.
    const cwd = folder();
    const data = folder();
    await runMain(['ask', 'books by George Orwell'], { cwd, env: { XDG_DATA_HOME: data, HOME: folder() } });
    expect(existsSync(join(data, 'archivist/runs.db'))).toBe(true);
    expect(readdirSync(cwd)).toEqual([]);

    // Without $XDG_DATA_HOME (or with a relative one, which the XDG specification says to ignore): ~/.local/share.
    for (const xdg of [undefined, 'relative/data']) {
      const home = folder();
      await runMain(['ask', 'books by George Orwell'], {
        cwd,
        env: { HOME: home, ...(xdg === undefined ? {} : { XDG_DATA_HOME: xdg }) },
      });
      expect(existsSync(join(home, '.local/share/archivist/runs.db'))).toBe(true);
    }
    expect(readdirSync(cwd)).toEqual([]);

    // $ARCHIVIST_STORE comes before $SWITCHYARD_STORE, and --store before both.
    const named = folder();
    const env = { HOME: folder(), ARCHIVIST_STORE: 'mine.db', SWITCHYARD_STORE: 'shared.db' };
    await runMain(['ask', 'books by George Orwell'], { cwd: named, env });
    expect(readdirSync(named)).toEqual(['mine.db']);
    await runMain(['ask', '--store', 'flag.db', 'books by George Orwell'], { cwd: named, env });
    expect(readdirSync(named).sort()).toEqual(['flag.db', 'mine.db']);
    await runMain(['ask', 'books by George Orwell'], { cwd: named, env: { SWITCHYARD_STORE: 'shared.db' } });
    expect(readdirSync(named)).toContain('shared.db');

    // With no home at all, .switchyard/ of the current folder.
    const homeless = folder();
    await runMain(['ask', 'books by George Orwell'], { cwd: homeless, env: {} });
    expect(existsSync(join(homeless, '.switchyard/runs.db'))).toBe(true);
  });

  it('chat --resume with --no-store, or with no store yet, is one line and creates nothing', async () => {
    const cwd = folder();
    const both = await runMain(['chat', '--resume', '--no-store'], { cwd });
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/^archivist: --resume needs the run store.*\(E_USAGE\)\n$/);
    const none = await runMain(['chat', '--resume'], { cwd });
    expect(none.code).toBe(1);
    expect(none.err).toMatch(
      /^archivist: no conversation is recorded in \.switchyard\/runs\.db.*\(E_NO_RUNS\)\n$/,
    );
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe('archivist chat --resume after the process was killed', () => {
  it('picks the conversation up: a follow-up resolves as it would have without the restart', async () => {
    // The same two questions in one process that never stops.
    const whole = chat(['--no-store'], folder());
    whole.say(FIRST);
    whole.say(FOLLOW_UP);
    whole.child.stdin.end();
    await whole.exited;
    const expected = answers(whole.out());
    expect(expected).toHaveLength(2);
    expect(expected[1]).toMatch(/by George Orwell/);

    const cwd = folder();
    const first = chat([], cwd);
    first.say(FIRST);
    await first.until((out) => answers(out).length === 1);
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    const id = /conversation ([0-9a-f-]{36}) is recorded/.exec(first.err())?.[1];
    expect(id, first.err()).toBeDefined();

    const again = chat(['--resume'], cwd);
    // The earlier turn is shown back before new input is taken.
    await again.until((out) => answers(out).length === 1);
    again.say(FOLLOW_UP);
    again.child.stdin.end();
    expect((await again.exited).code).toBe(0);
    expect(answers(again.out())).toEqual(expected);
    expect(again.err()).toContain(`conversation ${id} is recorded`);

    const store = await readStore(join(cwd, '.switchyard/runs.db'));
    const [one, two] = await turns(store);
    expect([one, two].map((run) => run && turnOf(run))).toEqual([
      { conversation: id, turn: 1 },
      { conversation: id, turn: 2 },
    ]);
    const remembered = (await endData(store, one?.id ?? '')).nextMemory;
    expect(remembered?.author).toBe('George Orwell');
    expect((two?.input as AskData[] | undefined)?.[0]?.memory).toEqual(remembered);
  });

  it('--resume <id> picks that conversation, not the most recent one', async () => {
    const cwd = folder();
    const orwell = chat([], cwd);
    orwell.say(FIRST);
    orwell.child.stdin.end();
    await orwell.exited;
    const id = /conversation ([0-9a-f-]{36})/.exec(orwell.err())?.[1] ?? '';
    const other = chat([], cwd);
    other.say('recommend something like Dune');
    other.child.stdin.end();
    await other.exited;

    const again = chat(['--resume', id], cwd);
    again.say(FOLLOW_UP);
    again.child.stdin.end();
    await again.exited;
    const replies = answers(again.out());
    expect(replies).toHaveLength(2);
    expect(replies[0]).toContain('"Nineteen Eighty-Four" by George Orwell');
    expect(replies[1]).toMatch(/^archivist> You could try "[^"]+" by George Orwell/);

    const unknown = chat(['--resume', 'no-such-conversation'], cwd);
    expect((await unknown.exited).code).toBe(1);
    expect(unknown.err()).toMatch(
      /^archivist: no conversation 'no-such-conversation' is recorded.*\(E_NO_RUNS\)\n$/,
    );
  });

  it('a turn cut off during its run is resumed, with its run, before new input', async () => {
    // A model endpoint that holds the first request open: the chat is killed while the turn waits on it.
    let hold = true;
    let request!: () => void;
    const asked = new Promise<void>((resolve) => {
      request = resolve;
    });
    const http = createServer((req, res: ServerResponse) => {
      let text = '';
      req.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      req.on('end', () => {
        if (hold) {
          request();
          return;
        }
        const body = JSON.parse(text || '{}') as { messages: { content: string }[] };
        const system = body.messages[0]?.content ?? '';
        const content = system.startsWith('Task: classify')
          ? '{"intent": "find", "title": "Nineteen Eighty-Four", "author": "George Orwell", "subjects": [], "keywords": "", "shorter": false, "longer": false}'
          : `You will like "${/^1\. "(.+?)"/m.exec(body.messages.at(-1)?.content ?? '')?.[1]}" by George Orwell.`;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content } }] }));
      });
    });
    server = http;
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/v1`;
    const args = ['--llm', 'openai', '--base-url', url];
    const env = { OPENAI_API_KEY: 'test' };

    const cwd = folder();
    const first = chat(args, cwd, env);
    first.say(FIRST);
    await asked;
    first.child.kill('SIGKILL');
    await first.exited;
    const file = join(cwd, '.switchyard/runs.db');
    const before = await readStore(file);
    const [cut] = await turns(before);
    expect(cut?.status).toBe('running');
    await before.close();
    open.splice(0);

    hold = false;
    const again = chat(['--resume', ...args], cwd, env);
    // The cut-off turn is answered first; only then is the follow-up taken.
    await again.until((out) => answers(out).length === 1);
    again.say(FOLLOW_UP);
    again.child.stdin.end();
    expect((await again.exited).code).toBe(0);
    expect(answers(again.out())[0]).toContain('"Nineteen Eighty-Four" by George Orwell');
    // The killed process's lease is taken over at once: the resume does not wait for it to lapse.
    expect(again.err()).not.toMatch(/lapses|E_STORE_LEASE_HELD/u);

    const store = await readStore(file);
    const [one, two] = await turns(store);
    expect(one?.id).toBe(cut?.id);
    expect(one?.status).toBe('completed');
    const events = (await store.readEvents(one?.id ?? '')).map((e) => e.body as Record<string, unknown>);
    expect(events).toContainEqual(expect.objectContaining({ type: 'run.start', resumed: true }));
    expect(two && turnOf(two)?.turn).toBe(2);
    const remembered = (await endData(store, one?.id ?? '')).nextMemory;
    expect(remembered?.author).toBe('George Orwell');
    expect((two?.input as AskData[] | undefined)?.[0]?.memory).toEqual(remembered);
  }, 90_000);
});
