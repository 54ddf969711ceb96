/** Sums question scores per class and formats the evaluation's report. */
import type { QuestionScore } from './score.ts';
import { EVAL_CLASSES, type EvalClass } from './set.ts';

/** The figures of one class, or of the whole set. */
export interface ClassFigures {
  readonly questions: number;
  /** Questions whose every check holds. */
  readonly passed: number;
  /** `passed / questions`, 0 to 1. */
  readonly score: number;
  /** The mean share of checks that hold, 0 to 1. */
  readonly partial: number;
}

/** The evaluation's result. */
export interface EvalReport {
  readonly classes: Partial<Record<EvalClass, ClassFigures>>;
  readonly total: ClassFigures;
  readonly failures: readonly { readonly id: string; readonly class: EvalClass; readonly reason: string }[];
}

function figures(scores: readonly QuestionScore[]): ClassFigures {
  const passed = scores.filter((s) => s.score === 1).length;
  const n = scores.length;
  const partial = scores.reduce((sum, s) => sum + s.partial, 0);
  return { questions: n, passed, score: n === 0 ? 0 : passed / n, partial: n === 0 ? 0 : partial / n };
}

/** The per-class and total figures of `scores`, and each failing question with its first reason. */
export function summarise(scores: readonly QuestionScore[]): EvalReport {
  const classes: Partial<Record<EvalClass, ClassFigures>> = {};
  for (const c of EVAL_CLASSES) {
    const of = scores.filter((s) => s.class === c);
    if (of.length > 0) classes[c] = figures(of);
  }
  const failures = scores
    .filter((s) => s.score === 0)
    .map((s) => ({ id: s.id, class: s.class, reason: s.reasons.join(' | ') }));
  return { classes, total: figures(scores), failures };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`.padStart(6);

function row(name: string, f: ClassFigures): string {
  return `${name.padEnd(14)} ${`${f.passed}/${f.questions}`.padStart(7)} ${pct(f.score)}   partial ${pct(f.partial)}`;
}

/** The report as text: failing questions with their reasons, then one line per class and the total. */
export function formatReport(report: EvalReport): string {
  const lines: string[] = [];
  if (report.failures.length > 0) {
    lines.push('Failing questions:');
    for (const f of report.failures) lines.push(`  ${f.id}: ${f.reason}`);
    lines.push('');
  }
  lines.push(`${'class'.padEnd(14)} ${'passed'.padStart(7)} ${'score'.padStart(6)}`);
  for (const c of EVAL_CLASSES) {
    const f = report.classes[c];
    if (f) lines.push(row(c, f));
  }
  lines.push(row('total', report.total));
  return lines.join('\n');
}
