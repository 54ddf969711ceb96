import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    // Programs that keep data in the user's data folder (the Archivist's history) keep it in a scratch
    // folder while tested, never in the home of whoever runs the tests.
    env: { XDG_DATA_HOME: join(tmpdir(), `switchyard-tests-${process.pid}`) },
    hookTimeout: 120_000,
    // Vitest's default leaves one core free, which on a 2-core machine runs the files one at a time; most of
    // them wait on child processes, Redis or Chromium, so two at once take about 0.6 of the time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The JSON report is what .ci/run reads to print its closing "N passed, N failed" line.
    reporters: ['default', ['json', { outputFile: '.vitest-report.json' }]],
  },
});
