import { tmpdir } from 'node:os';
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
    // The JSON report is what .ci/run reads to print its closing "N passed, N failed" line.
    reporters: ['default', ['json', { outputFile: '.vitest-report.json' }]],
  },
});
