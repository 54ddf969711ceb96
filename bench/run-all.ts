/**
 * Runs bench/engine-targets.ts (the engine's targets, each beside its hand-written baseline) and then every
 * bench/*.bench.ts in turn, each in its own `node --import tsx` child process (so peak RSS figures are per
 * workload), streaming their output; exits non-zero when any of them fails. `npm run bench` calls it.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const folder = fileURLToPath(new URL('.', import.meta.url));
const files = [
  'engine-targets.ts',
  ...readdirSync(folder)
    .filter((name) => name.endsWith('.bench.ts'))
    .sort(),
];

function runOne(file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `${folder}${file}`], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
  });
}

const failed: string[] = [];
for (const file of files) {
  process.stdout.write(`\n=== bench/${file}\n`);
  const code = await runOne(file);
  if (code !== 0) failed.push(`bench/${file} (exit ${code})`);
}
if (failed.length > 0) {
  process.stderr.write(`failed: ${failed.join(', ')}\n`);
  process.exitCode = 1;
}
