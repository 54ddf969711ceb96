import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The test files that run alone, before every other file: those that build `dist/` again while they run
 * (`npm run build`, `npm pack`), which swaps the folder, so that no other file runs the compiled programs
 * while it is replaced; and the one whose processes contend for one store within its busy timeout, which
 * another file's load beside it can push past.
 */
const REBUILDING = [
  'test/readme/readme.test.ts',
  'test/package/packed-install.test.ts',
  'test/package/without-scripts.test.ts',
  'test/archivist/store-contention.test.ts',
];

export default defineConfig({
  test: {
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
    projects: [
      ...REBUILDING.map((file, i) => ({
        extends: true as const,
        test: { name: `alone ${i + 1}`, include: [file], sequence: { groupOrder: i } },
      })),
      {
        extends: true as const,
        test: {
          name: 'the rest',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...REBUILDING],
          sequence: { groupOrder: REBUILDING.length },
        },
      },
    ],
  },
});
