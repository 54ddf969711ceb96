/**
 * Which b-trees a durable W1 run's commits write (docs/ENGINE-PROFILE.md): runs W1 on a fresh SQLite file
 * (`warm` runs first, so that the tables have the depth of a store in use), then `runs` more, and reads the
 * frames those added to the write-ahead log: each frame is one page a commit wrote, named by the table or
 * index that owns it (SQLite's `dbstat`; `page 1` is the file's header, written when the file grows).
 * Prints the frames per run by b-tree and, with `--commits`, each commit's pages.
 *
 *   node --import tsx bench/targets/durable-frames.ts [runs] [warm] [--commits]
 */
import { readFileSync } from 'node:fs';
import { createDispatcher, openSqliteStore } from '../../src/index.ts';
import { scratchFolder } from '../durable-common.ts';
import { W1_POLICY, w1Workload } from '../workloads.ts';

/** A WAL file's header, and each frame's header before its page. */
const WAL_HEADER = 32;
const FRAME_HEADER = 24;

/** One commit's pages, each named by the b-tree that owns it. */
type Commit = readonly string[];

/** The commits in `wal` from byte `from` on, a frame being a header and a page of `pageSize` bytes. */
function commitsOf(wal: Buffer, from: number, pageSize: number, owner: (page: number) => string): Commit[] {
  const commits: Commit[] = [];
  let pages: string[] = [];
  for (let at = Math.max(WAL_HEADER, from); at + FRAME_HEADER <= wal.length; at += FRAME_HEADER + pageSize) {
    const page = wal.readUInt32BE(at);
    pages.push(owner(page));
    // A frame that ends a commit holds the file's size in pages after it; other frames hold 0.
    if (wal.readUInt32BE(at + 4) !== 0) {
      commits.push(pages);
      pages = [];
    }
  }
  return commits;
}

async function main(runs: number, warm: number, listCommits: boolean): Promise<void> {
  const folder = scratchFolder('switchyard-durable-frames-');
  try {
    const { compiled, nodes } = w1Workload();
    const file = folder.file('frames.db');
    const store = await openSqliteStore(file);
    const dispatcher = createDispatcher({ nodes, policy: W1_POLICY, store });
    for (let i = 0; i < warm; i++) await dispatcher.run(compiled, { topic: 'whales' });
    const before = readFileSync(`${file}-wal`).length;
    for (let i = 0; i < runs; i++) await dispatcher.run(compiled, { topic: 'whales' });
    const wal = readFileSync(`${file}-wal`);
    const { default: Sqlite } = await import('better-sqlite3');
    const db = new Sqlite(file, { readonly: true });
    const owners = new Map<number, string>();
    for (const row of db.prepare('SELECT name, pageno FROM dbstat').all() as {
      name: string;
      pageno: number;
    }[]) {
      owners.set(row.pageno, row.name);
    }
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    db.close();
    await store.close();
    const owner = (page: number) => (page === 1 ? 'page 1' : (owners.get(page) ?? `page ${page}`));
    const commits = commitsOf(wal, before, pageSize, owner);
    // With more frames than the log keeps before it is checkpointed and started over, the count is short.
    if (commits.length < 2 * runs)
      throw new Error(`found ${commits.length} commits for ${runs} runs: use fewer`);
    const byTree = new Map<string, number>();
    for (const commit of commits) for (const tree of commit) byTree.set(tree, (byTree.get(tree) ?? 0) + 1);
    const total = commits.reduce((sum, commit) => sum + commit.length, 0);
    process.stdout.write(
      `durable W1, ${runs} runs after ${warm}: ${(total / runs).toFixed(2)} WAL frames a run, ` +
        `${(commits.length / runs).toFixed(1)} commits\n`,
    );
    for (const [tree, frames] of [...byTree].sort((a, b) => b[1] - a[1])) {
      process.stdout.write(`  ${tree.padEnd(34)} ${(frames / runs).toFixed(2)}\n`);
    }
    if (listCommits) for (const commit of commits) process.stdout.write(`  commit: ${commit.join(', ')}\n`);
  } finally {
    folder.remove();
  }
}

const args = process.argv.slice(2);
const numbers = args.filter((arg) => !arg.startsWith('--')).map(Number);
await main(numbers[0] ?? 200, numbers[1] ?? 500, args.includes('--commits'));
