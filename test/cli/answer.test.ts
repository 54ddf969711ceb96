/**
 * A recorded run whose items wait for answers, on the command line: `run` ends it `waiting` (exit 4) with
 * the command that answers each parked item; `runs` and `runs show` list it and its tokens; `answer`
 * records an answer (each refusal one line, exit 1, nothing written) and resumes the run; a run whose
 * process keeps waiting takes an answer given from another command; `--no-store` says that nothing
 * outside can answer. Real SQLite files, the CLI run in process.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { storedParked } from '../../src/awaits/stored.ts';
import { EXIT_WAITING } from '../../src/cli/exit-code.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import { runCli } from './run-cli.ts';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const DAG = join(FIXTURES, 'review.jsonld');
const NODES = join(FIXTURES, 'review-nodes.ts');
const TOKEN = /aw-[0-9a-f]{24}/u;

let dir: string;
let store: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-answer-'));
  store = join(dir, 'runs.db');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Starts a run of two items that stops waiting for both answers; its id and the stderr lines. */
async function waitingRun(): Promise<{ runId: string; err: string; out: string; code: number }> {
  const { code, out, err } = await runCli(
    ['run', DAG, '--nodes', NODES, '--input', '[{"n":1},{"n":2}]', '--store', store],
    dir,
  );
  const runId = /recorded in \S+ as (\S+)/u.exec(out)?.[1] ?? '';
  return { runId, err, out, code };
}

/** The tokens the run's stderr lines give, by item. */
function tokensOf(err: string): Map<string, string> {
  const tokens = new Map<string, string>();
  for (const line of err.split('\n')) {
    const item = /item (\S+) waits for an answer/u.exec(line)?.[1];
    const token = TOKEN.exec(line)?.[0];
    if (item !== undefined && token !== undefined) tokens.set(item, token);
  }
  return tokens;
}

async function answersIn(runId: string): Promise<number> {
  const opened = await openSqliteStore(store, { readonly: true });
  try {
    return (await opened.listAnswers(runId)).length;
  } finally {
    await opened.close();
  }
}

describe('switchyard run with items waiting for answers', () => {
  it('ends the run waiting, exit 4, with one line per parked item and the command that answers it', async () => {
    const { runId, out, err, code } = await waitingRun();
    expect(code).toBe(EXIT_WAITING);
    expect(EXIT_WAITING).toBe(4);
    expect(out).toContain(`run ${runId}: waiting`);
    expect(out).toContain("  waiting: item 1 at 'review' for an answer");
    const tokens = tokensOf(err);
    expect([...tokens.keys()]).toEqual(['1', '2']);
    const line = err.split('\n').find((l) => l.includes('item 1 waits'));
    expect(line).toMatch(
      new RegExp(
        `^  item 1 waits for an answer at 'review' until \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z \\(in (59|60) min\\): switchyard answer ${runId} ${tokens.get('1')} <approved\\|rejected> --nodes \\S+review-nodes\\.ts --store runs\\.db$`,
        'u',
      ),
    );
  });

  it('--no-store says once that nothing outside can answer, and the deadline routes the item', async () => {
    const policy = join(dir, 'quick.policy.json');
    await writeFile(policy, JSON.stringify({ placements: { review: { deadlineMs: 5000 } } }));
    const { code, out, err } = await runCli(
      ['run', DAG, '--nodes', NODES, '--no-store', '--policy', policy, '--virtual-time'],
      dir,
    );
    expect(code).toBe(1);
    expect(err.match(/--no-store nothing outside this process can answer an await/gu)).toHaveLength(1);
    expect(out).toContain('escalate (failed): 1 item');
  });
});

describe('switchyard runs for a waiting run', () => {
  it('lists it with --status waiting, marked, and shows its tokens and answer commands', async () => {
    const { runId, err } = await waitingRun();
    const tokens = tokensOf(err);
    const listed = await runCli(['runs', '--status', 'waiting', '--store', store], dir);
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(new RegExp(`${runId}\\s+waiting \\(answer\\)`, 'u'));
    const shown = await runCli(['runs', 'show', runId, '--store', store], dir);
    expect(shown.out).toContain(
      `await    item 1 at review (visit 1) token ${tokens.get('1')}, expects approved | rejected, deadline `,
    );
    expect(shown.out).toContain(
      `switchyard answer ${runId} ${tokens.get('2')} <approved|rejected> --store runs.db`,
    );
    const json = JSON.parse((await runCli(['runs', 'show', runId, '--store', store, '--json'], dir)).out);
    expect(
      json.parked.map((p: { item: string; token: string; answers: string[] }) => [
        p.item,
        p.token,
        p.answers,
      ]),
    ).toEqual([
      ['1', tokens.get('1'), ['approved', 'rejected']],
      ['2', tokens.get('2'), ['approved', 'rejected']],
    ]);
    expect(json.parked[0].deadlineIn).toMatch(/^in (59|60) min$/u);
    expect(json.answers).toEqual([]);
  });
});

describe('switchyard answer', () => {
  it('refuses a wrong answer with one line, exit 1, writing nothing; a wrong command line exits 2', async () => {
    const { runId, err } = await waitingRun();
    const token = tokensOf(err).get('1') as string;
    const cases: [string[], string][] = [
      [['answer', runId, token, 'maybe'], "expects one of 'approved', 'rejected'"],
      [['answer', runId, 'aw-000000000000000000000000', 'approved'], 'E_UNKNOWN_TOKEN'],
      [['answer', runId, 'not-a-token', 'approved'], 'E_UNKNOWN_TOKEN'],
      [['answer', runId, token, 'approved', '--data', '{nope'], '--data is not JSON at 1:2'],
      [['answer', 'no-such-run', token, 'approved'], 'E_RESUME_UNKNOWN_RUN'],
    ];
    for (const [args, said] of cases) {
      const refused = await runCli([...args, '--store', store], dir);
      expect(refused.code, args.join(' ')).toBe(1);
      expect(refused.err.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(refused.err).toContain(said);
    }
    expect(await answersIn(runId)).toBe(0);
    const usage = await runCli(['answer', runId, token, '--store', store], dir);
    expect(usage.code).toBe(2);
  });

  it('records with --no-resume, shows the answer not yet taken, refuses a second, and resumes with the last', async () => {
    const { runId, err } = await waitingRun();
    const tokens = tokensOf(err);
    const dataFile = join(dir, 'review.json');
    await writeFile(dataFile, JSON.stringify({ note: 'ship it' }));
    const first = await runCli(
      [
        'answer',
        runId,
        tokens.get('1') as string,
        'approved',
        '--data',
        `@${dataFile}`,
        '--no-resume',
        '--store',
        store,
      ],
      dir,
    );
    expect(first.code).toBe(0);
    expect(first.out).toContain(
      "answered item 1 at 'review' with 'approved'; recorded: the run waits with no process",
    );
    expect(first.out).toContain(`switchyard resume ${runId} --nodes <module>`);
    const shown = JSON.parse((await runCli(['runs', 'show', runId, '--store', store, '--json'], dir)).out);
    expect(shown.status).toBe('waiting');
    expect(shown.answers).toEqual([
      expect.objectContaining({ token: tokens.get('1'), output: 'approved', data: { note: 'ship it' } }),
    ]);
    const again = await runCli(
      ['answer', runId, tokens.get('1') as string, 'rejected', '--store', store],
      dir,
    );
    expect(again.code).toBe(1);
    expect(again.err).toContain('E_ALREADY_ANSWERED');

    const last = await runCli(
      [
        'answer',
        runId,
        tokens.get('2') as string,
        'approved',
        '--data',
        '-',
        '--nodes',
        NODES,
        '--store',
        store,
      ],
      dir,
      { stdin: '{"note":"fine"}' },
    );
    expect(last.err).toBe('');
    expect(last.code).toBe(0);
    expect(last.out.split('\n')[0]).toBe(`answered item 2 at 'review' with 'approved'; run ${runId} goes on`);
    expect(last.out).toContain(`resumed run ${runId}: completed`);
    expect(last.out).toContain('publish (completed): 2 items');
    const ended = JSON.parse((await runCli(['runs', 'show', runId, '--store', store, '--json'], dir)).out);
    expect(ended.status).toBe('completed');
    expect(ended.parked).toEqual([]);
    expect(ended.answers).toEqual([]);
    expect(ended.items.map((i: { data: unknown }) => i.data)).toEqual([
      { n: 1, drafted: true, review: { note: 'ship it' } },
      { n: 2, drafted: true, review: { note: 'fine' } },
    ]);
    const over = await runCli(
      ['answer', runId, tokens.get('2') as string, 'approved', '--store', store],
      dir,
    );
    expect(over.code).toBe(1);
    expect(over.err).toContain('E_RUN_FINISHED');
  });

  it('resume of a waiting run that nobody answered stops waiting again, exit 4, with the same tokens', async () => {
    const { runId, err } = await waitingRun();
    const resumed = await runCli(['resume', runId, '--nodes', NODES, '--store', store], dir);
    expect(resumed.code).toBe(EXIT_WAITING);
    expect(tokensOf(resumed.err)).toEqual(tokensOf(err));
  });

  it('gives the answer to a process that keeps waiting, which takes it from the store', async () => {
    const running = runCli(
      ['run', DAG, '--nodes', NODES, '--store', store, '--keep-waiting', '--input', '{"n":7}'],
      dir,
    );
    // Waits for the condition: the run recorded with its item parked (the bound is no guess at the time).
    const opened = await openSqliteStore(store, { readonly: true });
    const { runId, token } = await vi
      .waitFor(
        async () => {
          for (const run of (await opened.listRuns({ status: ['running'], limit: 5 })).runs) {
            const parked = (await storedParked(opened, run.id))[0];
            if (parked !== undefined) return { runId: run.id, token: parked.token };
          }
          throw new Error('no run parked yet');
        },
        { timeout: 60_000, interval: 20 },
      )
      .finally(() => opened.close());
    expect(token).toMatch(TOKEN);
    const given = await runCli(['answer', runId, token, 'rejected', '--nodes', NODES, '--store', store], dir);
    expect(given.code).toBe(0);
    expect(given.out).toMatch(
      new RegExp(
        `^answered item 1 at 'review' with 'rejected'; recorded: the process running ${runId} \\(pid ${process.pid} on \\S+\\) takes it\\n$`,
        'u',
      ),
    );
    const done = await running;
    expect(done.code).toBe(1);
    expect(done.out).toContain('drop (failed): 1 item');
  });
});
