import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import { storeContract } from './contract.ts';

const dir = mkdtempSync(join(tmpdir(), 'switchyard-store-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

storeContract('SQLite store (file)', () => openSqliteStore(join(dir, `contract-${n++}.db`)));
storeContract('SQLite store (:memory:)', () => openSqliteStore(':memory:'));
