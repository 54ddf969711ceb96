import { relative } from 'node:path';
import type { Problem } from '../errors.ts';

/** One line per problem: `file:line:col error CODE message (at /pointer)`, paths relative to `cwd`. */
export function formatProblem(p: Problem, cwd: string): string {
  const file = p.file === undefined ? '' : relative(cwd, p.file) || p.file;
  const position = p.line === undefined ? '' : `:${p.line}:${p.column ?? 1}`;
  const where = file || position ? `${file}${position} ` : '';
  const at = p.pointer !== undefined && p.pointer !== '' ? ` (at ${p.pointer})` : '';
  return `${where}${p.severity} ${p.code} ${p.message}${at}`;
}

/** A count with its noun, pluralised: `1 error`, `2 errors`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** Milliseconds for people: `850 ms`, `12.5 s`, `3 min 20 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return seconds === 0 ? `${minutes} min` : `${minutes} min ${seconds} s`;
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
