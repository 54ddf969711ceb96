/**
 * The lines of bench/engine-targets.ts: each target's figure beside its hand-written baseline, the measured
 * value it is judged by (a ratio, a growth or bytes), the bound, and PASS or MISS.
 */

/** A bound on a measured value: `at most` or `at least` `value`. */
export interface Goal {
  readonly bound: 'at most' | 'at least';
  readonly value: number;
  /** How values are written: a ratio (`2.00×`) or bytes (`2,048 B`). */
  readonly unit: 'ratio' | 'bytes';
}

/** One line of the table. */
export interface TargetLine {
  /** What is measured, e.g. `async W2, 10,000 items: engine / hand-written`. */
  readonly target: string;
  /** The hand-written baseline's figure in the same run. */
  readonly baseline: string;
  /** The engine's figure in the same run. */
  readonly engine: string;
  /** The value judged; NaN when it could not be measured (a skipped line). */
  readonly measured: number;
  readonly goal: Goal;
  /** What the issue measured before the redesign, for comparison. */
  readonly before: string;
  /** The 1-minute load average when the line's measurement began and ended. */
  readonly load: readonly [number, number];
  /** Why a line was not measured, or a remark on it. */
  readonly note?: string;
}

/** PASS when the value is within its bound, MISS when not, SKIP when it could not be measured. */
export type Verdict = 'PASS' | 'MISS' | 'SKIP';

/**
 * Judges a measured value against its goal.
 * @example
 * verdict(1.8, { bound: 'at most', value: 2, unit: 'ratio' }); // 'PASS'
 */
export function verdict(measured: number, goal: Goal): Verdict {
  if (!Number.isFinite(measured)) return 'SKIP';
  return (goal.bound === 'at most' ? measured <= goal.value : measured >= goal.value) ? 'PASS' : 'MISS';
}

/** A value written in a goal's unit. */
export function formatValue(value: number, unit: Goal['unit']): string {
  if (!Number.isFinite(value)) return 'n/a';
  return unit === 'bytes' ? `${Math.round(value).toLocaleString('en')} B` : `${value.toFixed(2)}×`;
}

/** The table rows of `lines`, a header first; a line with a note refers to it by number (`[1]`). */
export function targetRows(lines: readonly TargetLine[]): string[][] {
  const rows = [['target', 'hand-written', 'engine', 'measured', 'goal', 'before', 'verdict', 'load']];
  let notes = 0;
  for (const line of lines) {
    const { goal } = line;
    const mark = line.note === undefined ? '' : ` [${++notes}]`;
    rows.push([
      line.target,
      line.baseline,
      line.engine,
      formatValue(line.measured, goal.unit),
      `${goal.bound === 'at most' ? '≤' : '≥'} ${formatValue(goal.value, goal.unit)}`,
      line.before,
      `${verdict(line.measured, goal)}${mark}`,
      `${line.load[0].toFixed(1)}→${line.load[1].toFixed(1)}`,
    ]);
  }
  return rows;
}

/** The notes of `lines`, numbered as {@link targetRows} refers to them. */
export function targetNotes(lines: readonly TargetLine[]): string[] {
  return lines
    .flatMap((line) => (line.note === undefined ? [] : [line.note]))
    .map((note, i) => `[${i + 1}] ${note}`);
}

/** True when some measured line misses its goal (skipped lines do not count). */
export function anyMissed(lines: readonly TargetLine[]): boolean {
  return lines.some((line) => verdict(line.measured, line.goal) === 'MISS');
}
