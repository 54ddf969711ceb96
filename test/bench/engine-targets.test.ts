import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileTree, MEASURED_PROGRAMS } from '../../bench/targets/compiled.ts';
import { parseTargetOptions, SECTIONS, TODAY_REF } from '../../bench/targets/options.ts';
import { anyMissed, type TargetLine, targetNotes, targetRows, verdict } from '../../bench/targets/verdict.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function line(measured: number, bound: 'at most' | 'at least', value: number, note?: string): TargetLine {
  return {
    target: 't',
    baseline: 'b',
    engine: 'e',
    measured,
    goal: { bound, value, unit: 'ratio' },
    before: '1×',
    load: [1, 2],
    ...(note === undefined ? {} : { note }),
  };
}

describe('engine targets: options', () => {
  it('defaults to every target at sizes that finish in minutes, held to today at the pinned commit', () => {
    const options = parseTargetOptions({});
    expect(options.sections).toEqual([...SECTIONS]);
    expect(options.asyncSizes).toEqual([10_000, 100_000]);
    expect(options.inflightItems).toBe(100_000);
    expect(options.reps).toBeUndefined();
    expect(options.todayRef).toBe(TODAY_REF);
    expect(options.strict).toBe(false);
  });

  it('adds the million-item point with TARGETS_LARGE=1, and takes sizes, sections and today as given', () => {
    expect(parseTargetOptions({ TARGETS_LARGE: '1' }).asyncSizes).toEqual([10_000, 100_000, 1_000_000]);
    const options = parseTargetOptions({
      TARGETS_ONLY: 'distributed, w1',
      TARGETS_ASYNC_SIZES: '1000,5000',
      TARGETS_REPS: '4',
      TARGETS_TODAY: 'none',
      TARGETS_STRICT: '1',
    });
    expect(options.sections).toEqual(['w1', 'distributed']);
    expect(options.asyncSizes).toEqual([1000, 5000]);
    expect(options.reps).toBe(4);
    expect(options.todayRef).toBeUndefined();
    expect(options.strict).toBe(true);
  });

  it.each([
    [{ TARGETS_REPS: '0' }, 'TARGETS_REPS'],
    [{ TARGETS_REPS: '2.5' }, 'TARGETS_REPS'],
    [{ TARGETS_INFLIGHT_ITEMS: 'many' }, 'TARGETS_INFLIGHT_ITEMS'],
    [{ TARGETS_ASYNC_SIZES: '100000,10000' }, 'TARGETS_ASYNC_SIZES'],
    [{ TARGETS_ASYNC_SIZES: '10000,' }, 'TARGETS_ASYNC_SIZES'],
    [{ TARGETS_ONLY: 'w3' }, 'TARGETS_ONLY'],
    [{ TARGETS_LARGE: 'yes' }, 'TARGETS_LARGE'],
    [{ TARGETS_TODAY: 'a b' }, 'TARGETS_TODAY'],
  ])('refuses %o with E_USAGE naming the knob', (env, knob) => {
    expect(() => parseTargetOptions(env)).toThrow(expect.objectContaining({ code: 'E_USAGE' }));
    expect(() => parseTargetOptions(env)).toThrow(new RegExp(`^${knob} `, 'u'));
  });

  it('says what is wrong in one line, with no stack trace, and exits 2', () => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', 'bench/engine-targets.ts'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, TARGETS_ONLY: 'w9' },
    });
    expect(child.status).toBe(2);
    expect(child.stdout).toBe('');
    expect(child.stderr.trim().split('\n')).toHaveLength(1);
    expect(child.stderr).toMatch(/^engine-targets: E_USAGE: TARGETS_ONLY names 'w9'/u);
  });
});

describe('engine targets: verdicts', () => {
  it('passes a value within its bound, either way, the bound itself included', () => {
    expect(verdict(2, { bound: 'at most', value: 2, unit: 'ratio' })).toBe('PASS');
    expect(verdict(2.01, { bound: 'at most', value: 2, unit: 'ratio' })).toBe('MISS');
    expect(verdict(0.7, { bound: 'at least', value: 0.7, unit: 'ratio' })).toBe('PASS');
    expect(verdict(0.69, { bound: 'at least', value: 0.7, unit: 'ratio' })).toBe('MISS');
  });

  it('skips a line it could not measure, and counts no skip as a miss', () => {
    expect(verdict(Number.NaN, { bound: 'at most', value: 2, unit: 'ratio' })).toBe('SKIP');
    expect(anyMissed([line(Number.NaN, 'at most', 2), line(1, 'at most', 2)])).toBe(false);
    expect(anyMissed([line(3, 'at most', 2)])).toBe(true);
  });

  it('writes each line with its goal, verdict, load and a numbered note', () => {
    const rows = targetRows([line(1.5, 'at most', 2), line(0.5, 'at least', 0.7, 'why')]);
    expect(rows[0]).toEqual([
      'target',
      'hand-written',
      'engine',
      'measured',
      'goal',
      'before',
      'verdict',
      'load',
    ]);
    expect(rows[1]).toEqual(['t', 'b', 'e', '1.50×', '≤ 2.00×', '1×', 'PASS', '1.0→2.0']);
    expect(rows[2]?.slice(3, 7)).toEqual(['0.50×', '≥ 0.70×', '1×', 'MISS [1]']);
    expect(targetNotes([line(1, 'at most', 2), line(1, 'at most', 2, 'why')])).toEqual(['[1] why']);
  });
});

describe('engine targets: the measured programs', () => {
  it('compile with tsc and run with plain node, no tsx in the process', () => {
    const built = compileTree(ROOT, MEASURED_PROGRAMS);
    try {
      const run = (
        script: string,
        args: readonly string[],
        env: Record<string, string> = {},
        flags: string[] = [],
      ) =>
        spawnSync(process.execPath, [...flags, join(built.root, 'bench', script), ...args], {
          encoding: 'utf8',
          env: { ...process.env, ...env },
        });
      const inflight = run('targets/inflight.js', ['baseline', '200', '1'], {}, ['--expose-gc']);
      expect(inflight.stderr).toBe('');
      expect(JSON.parse(inflight.stdout).bytesPerItem).toBeGreaterThan(0);
      const today = run('targets/in-memory.js', ['w2-sync-100', '1', built.root]);
      expect(today.stderr).toBe('');
      expect(JSON.parse(today.stdout).engineOverToday.cpu).toBeGreaterThan(0);
      const w2 = run('w2.bench.js', ['async', 'engine', '100'], { REPS: '1' });
      expect(JSON.parse(w2.stdout.split('\n')[0] ?? '').cpuMs).toBeGreaterThan(0);
      const durable = run('durable-w2.bench.js', ['sync', 'count'], { ITEMS: '20' });
      expect(JSON.parse(durable.stdout.split('\n')[0] ?? '').batches).toBeGreaterThan(0);
      const w1 = run('targets/durable-w1.js', ['5', '1']);
      expect(JSON.parse(w1.stdout).engine.cpuUs).toBeGreaterThan(0);
      for (const program of MEASURED_PROGRAMS) {
        expect(existsSync(join(built.root, program.replace(/\.ts$/u, '.js')))).toBe(true);
      }
    } finally {
      built.remove();
    }
  });
});
