import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import { fromSqlite } from '../../src/store/sqlite-errors.ts';
import { storeContract } from './contract.ts';
import { eventWrites, makeRun, runWrite } from './fixtures.ts';

const dir = mkdtempSync(join(tmpdir(), 'switchyard-store-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

storeContract('SQLite store (file)', () => openSqliteStore(join(dir, `contract-${n++}.db`)));
storeContract('SQLite store (:memory:)', () => openSqliteStore(':memory:'));

describe('SQLite store calls that succeed', () => {
  it('read no clock: the wait a lock refusal states is the busy timeout, not a measurement', async () => {
    const store = await openSqliteStore(join(dir, `clock-${n++}.db`));
    const now = vi.spyOn(performance, 'now');
    try {
      await store.commit([runWrite(makeRun('r'))]);
      await store.commit(eventWrites('r', 0, 3));
      expect(await store.getRun('r')).toBeDefined();
      expect((await store.readEvents('r')).length).toBe(3);
      expect(now).not.toHaveBeenCalled();
    } finally {
      now.mockRestore();
      await store.close();
    }
  });
});

describe('a lock refusal', () => {
  const scene = { file: '/x/runs.db', busyTimeoutMs: 50, opening: false };
  const refusal = (code: string) =>
    (fromSqlite(Object.assign(new Error('database is locked'), { code }), scene) as Error).message;

  it('states the busy timeout as its wait when SQLite waited it out', () => {
    expect(refusal('SQLITE_BUSY')).toContain('/x/runs.db is locked by another process (waited 50 ms);');
  });

  it('claims no wait for the codes SQLite answers without its busy handler', () => {
    for (const code of ['SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED', 'SQLITE_LOCKED_SHAREDCACHE']) {
      const message = refusal(code);
      expect(message).toContain(`is locked by another process (${code});`);
      expect(message).not.toContain('waited');
    }
  });
});
