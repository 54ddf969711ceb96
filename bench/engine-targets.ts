/**
 * The benchmark targets of the one-engine redesign, each beside its hand-written baseline in the same run:
 *
 * - in-memory W1 and sync W2 no slower than today (within 5%): this tree's engine against today's (the
 *   engine at {@link TODAY_REF}, extracted beside this tree) and the hand-written loop, in rotating rounds;
 * - async W2 within 2× of the hand-written async baseline at 10,000 items, linear to 1,000,000 items (at most
 *   2× the per-item cost at 10,000; the million-item point with `TARGETS_LARGE=1`), at most 2 KiB per
 *   in-flight item at 100,000 (every item held at once, heap after a forced collection);
 * - durable W1 within 1.5× of the hand-written loop writing the same rows (SQLite file);
 * - durable W2 at least 0.7× its hand-written baseline writing as many checkpoints and events;
 * - distributed W2 at most 2× the CPU per hop of raw BullMQ jobs, Redis included.
 *
 * Every measurement runs in a process of its own and reports medians over repetitions; lines are judged on
 * CPU time (user + system of every process involved, all threads), which a busy machine disturbs less than
 * wall time; wall ratios are shown beside. Each line carries the 1-minute load average when its
 * measurement began and ended. Knobs (environment): see {@link TARGET_KNOBS} in targets/options.ts.
 *
 *   node --import tsx bench/engine-targets.ts          (or npm run bench:targets)
 *   TARGETS_ONLY=w2-async,inflight TARGETS_LARGE=1 node --import tsx bench/engine-targets.ts
 */
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { isSwitchyardError } from '../src/errors.ts';
import { printTable } from './stats.ts';
import { loadNow } from './targets/child.ts';
import { type CompiledTree, compileTree, MEASURED_PROGRAMS } from './targets/compiled.ts';
import { distributed, durableW1, durableW2 } from './targets/durable-lines.ts';
import { asyncW2, inflight, type Measured, versusToday } from './targets/in-memory-lines.ts';
import { parseTargetOptions, type Section, type TargetOptions, TODAY_REF } from './targets/options.ts';
import { extractTree } from './targets/today-tree.ts';
import { anyMissed, type TargetLine, targetNotes, targetRows } from './targets/verdict.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));

/** Measures one section's lines with the programs compiled at `root`. */
function measure(
  section: Section,
  options: TargetOptions,
  root: string,
  todayRoot: string | undefined,
): Measured[] {
  switch (section) {
    case 'w1':
    case 'w2-sync':
      return [versusToday(section, options, root, todayRoot)];
    case 'w2-async':
      return asyncW2(options, root);
    case 'inflight':
      return [inflight(options, root)];
    case 'durable-w1':
      return [durableW1(options, root)];
    case 'durable-w2':
      return durableW2(options, root);
    case 'distributed':
      return [distributed(options, root)];
  }
}

/** Today's engine extracted and compiled, or why not (then the recorded ratios stand in). */
function todayEngine(ref: string): {
  readonly tree?: CompiledTree;
  readonly problem?: string;
  remove(): void;
} {
  const extracted = extractTree(REPO, ref);
  if (extracted.root === undefined) return { problem: extracted.problem, remove: () => undefined };
  try {
    const tree = compileTree(extracted.root, ['src/index.ts']);
    return {
      tree,
      remove: () => {
        tree.remove();
        extracted.remove();
      },
    };
  } catch (error) {
    extracted.remove();
    return { problem: (error as Error).message.split('\n')[0] ?? '', remove: () => undefined };
  }
}

function main(): number {
  let options: TargetOptions;
  try {
    options = parseTargetOptions(process.env);
  } catch (error) {
    if (!isSwitchyardError(error)) throw error;
    process.stderr.write(`engine-targets: ${error.code}: ${error.message}\n`);
    return 2;
  }
  const needsToday = options.sections.includes('w1') || options.sections.includes('w2-sync');
  const today = needsToday && options.todayRef !== undefined ? todayEngine(options.todayRef) : undefined;
  if (today?.problem !== undefined) {
    process.stderr.write(`engine-targets: ${today.problem}; today's ratios as recorded are used instead\n`);
  }
  const against = !needsToday
    ? ''
    : today?.tree === undefined
      ? ', today = the recorded ratios'
      : `, today = ${(options.todayRef ?? TODAY_REF).slice(0, 12)}`;
  process.stdout.write(
    `engine targets: node ${process.version}, ${cpus().length} cores, load ${loadNow().toFixed(1)}${against}; compiled with tsc, run without tsx\n`,
  );
  const lines: TargetLine[] = [];
  let failed = false;
  let built: CompiledTree | undefined;
  try {
    built = compileTree(REPO, MEASURED_PROGRAMS);
    for (const section of options.sections) {
      process.stderr.write(`measuring ${section}…\n`);
      const start = loadNow();
      try {
        for (const line of measure(section, options, built.root, today?.tree?.root))
          lines.push({ ...line, load: [start, loadNow()] });
      } catch (error) {
        failed = true;
        process.stderr.write(`engine-targets: ${section} failed: ${(error as Error).message}\n`);
      }
    }
  } finally {
    built?.remove();
    today?.remove();
  }
  printTable(
    'Engine targets (issue 21): judged on CPU time, medians; load = 1-minute load average',
    targetRows(lines),
  );
  for (const note of targetNotes(lines)) process.stdout.write(`  ${note}\n`);
  if (failed) return 1;
  return options.strict && anyMissed(lines) ? 1 : 0;
}

process.exitCode = main();
