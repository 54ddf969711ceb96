import type { Problem } from '../errors.ts';
import { displayPath } from './output.ts';

/** One line per problem: `file:line:col error CODE message (at /pointer)`, paths as {@link displayPath} shows them. */
export function formatProblem(p: Problem, cwd: string): string {
  const file = p.file === undefined ? '' : displayPath(p.file, cwd);
  const position = p.line === undefined ? '' : `:${p.line}:${p.column ?? 1}`;
  const where = file || position ? `${file}${position} ` : '';
  const at = p.pointer !== undefined && p.pointer !== '' ? ` (at ${p.pointer})` : '';
  return `${where}${p.severity} ${p.code} ${p.message}${at}`;
}

/** A count with its noun, pluralised: `1 error`, `2 errors`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * Milliseconds for people: `850 ms`, `12.5 s`, `3 min 20 s`. Each form rounds first and then picks its unit,
 * so no rounding ever shows `1000 ms`, `60.0 s` or `1 min 60 s`.
 */
export function formatDuration(ms: number): string {
  const whole = Math.round(ms);
  if (whole < 1000) return `${whole} ms`;
  const hundredths = Math.round(ms / 10);
  if (hundredths < 1000) return `${(hundredths / 100).toFixed(2)} s`;
  const tenths = Math.round(ms / 100);
  if (tenths < 600) return `${(tenths / 10).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}

/** Where a loaded document's text can be looked up; see `LoadResult`. */
interface WrittenForm {
  locate(pointer: string): { line: number; column: number } | undefined;
  writtenPointer(modelPointer: string): string | undefined;
}

/** Moves an analysis problem (pointer into the model) to the pointer, line and column as written. */
export function atWrittenPosition(p: Problem, written: WrittenForm): Problem {
  if (p.line !== undefined || p.pointer === undefined) return p;
  const pointer = written.writtenPointer(p.pointer);
  const position = pointer === undefined ? undefined : written.locate(pointer);
  return pointer === undefined ? p : { ...p, pointer, ...(position ?? {}) };
}
