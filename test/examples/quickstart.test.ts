import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { NODE_FROM_SOURCES } from '../cli-entry.ts';

const run = promisify(execFile);

describe('examples/quickstart.ts (the README example)', () => {
  it('runs the compose/validate loop through the public API: two retries, then done', async () => {
    const { stdout } = await run(process.execPath, [...NODE_FROM_SOURCES, 'examples/quickstart.ts']);
    const lines = stdout.trim().split('\n');
    // Seeded jitter on the virtual clock: the timeline is exact, the same as the README shows.
    expect(lines).toEqual([
      't=0 ms retry validate → compose in 162 ms: draft 1 names no source',
      't=162 ms retry validate → compose in 200 ms: draft 2 names no source',
      'completed 1 ended at done',
    ]);
  });
});
