import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

describe('examples/quickstart.ts (the README example)', () => {
  it('runs the compose/validate loop through the public API: two retries, then done', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/quickstart.ts']);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^t=0 ms retry validate → compose in \d+ ms: draft 1 names no source$/);
    expect(lines[1]).toMatch(/^t=\d+ ms retry validate → compose in \d+ ms: draft 2 names no source$/);
    expect(lines[2]).toBe('completed 1 ended at done');
  });
});
