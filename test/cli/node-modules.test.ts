/**
 * Loading node modules written in TypeScript many times in one process, as a harness that calls `main` again
 * and again does: tsx is registered once, so its hooks do not pile up until a later `require` overflows the
 * stack. Run in a child process with the main thread's default stack (984 KiB).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const SCRIPT = `
import { loadNodeModule } from './src/cli/node-modules.ts';
const loads = Number(process.env.LOADS);
for (let i = 0; i < loads; i++) await loadNodeModule('test/fixtures/nodes/compose-validate.ts');
// A package loaded only now goes through every hook registered so far.
const { default: jsonld } = await import('jsonld');
console.log(typeof jsonld.expand);
`;

describe('node modules in TypeScript', () => {
  it('can be loaded thousands of times in one process, and a package loaded after them still loads', () => {
    const child = spawnSync(
      process.execPath,
      ['--stack-size=984', '--import', 'tsx', '--input-type=module', '--eval', SCRIPT],
      { cwd: ROOT, env: { ...process.env, LOADS: '2000' }, encoding: 'utf8', timeout: 120_000 },
    );
    expect(child.stderr).not.toContain('Maximum call stack');
    expect(child.stdout.trim()).toBe('function');
    expect(child.status).toBe(0);
  }, 150_000);
});
