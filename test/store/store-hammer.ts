/**
 * A process for the SQLite concurrency test: opens the store file it is given, prints `ready`, and once it
 * reads a line on stdin writes its runs as a recorded run does (the run, then batches that read before they
 * write: events, checkpoints, a status, a lease taken and given back), reading between batches. Exits 0 when
 * every write landed; otherwise prints the store error's code and message and exits 1.
 */
import { once } from 'node:events';
import { isSwitchyardError } from '../../src/errors.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import { eventWrites, makeCheckpoint, makeRun, pageWrite, runWrite } from './fixtures.ts';

const [file, name, count] = process.argv.slice(2) as [string, string, string];
const store = await openSqliteStore(file);
process.stdout.write('ready\n');
await once(process.stdin, 'data');
try {
  for (let i = 0; i < Number(count); i++) {
    const id = `${name}-${i}`;
    await store.commit([runWrite(makeRun(id)), ...eventWrites(id, 0, 2)]);
    await store.commit([
      { kind: 'checkpoint', checkpoint: makeCheckpoint(id, '1') },
      ...eventWrites(id, 2, 4),
    ]);
    await store.getRun(id);
    await store.commit([pageWrite(id, [4, 5, 6])]);
    const lease = await store.acquireLease({
      runId: id,
      holder: { pid: process.pid, host: name },
      now: 0,
      ttlMs: 60_000,
    });
    await store.commit([
      ...eventWrites(id, 7, 8),
      { kind: 'run-status', update: { runId: id, status: 'completed', at: 1, finishedAt: 1 } },
    ]);
    await store.releaseLease(lease);
  }
  await store.close();
  process.stdout.write('done\n');
} catch (error) {
  process.stdout.write(
    `${JSON.stringify(isSwitchyardError(error) ? { code: error.code, message: error.message } : { message: String(error) })}\n`,
  );
  process.exitCode = 1;
}
