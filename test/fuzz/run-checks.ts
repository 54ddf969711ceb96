/**
 * Checks of a fuzzed `run --json --events events.jsonl` of a document `validate` accepted, against an
 * oracle that does not share the engine's code: the run's own `inspect --json` figures. Every item of the
 * root document stays within the worst-case executions `inspect` promised for each placement, no retry
 * spends a budget past its declared `max`, the JSON result and every event line are JSON, and every item is
 * accounted for.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CommandResult, Violation } from './commands.ts';

/** JSON.parse, or undefined when the text is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Reads a file of the case folder, or undefined when it is not there. */
function readCaseFile(dir: string, path: string): Promise<string | undefined> {
  return readFile(join(dir, path), 'utf8').catch(() => undefined);
}

interface InspectJson {
  readonly placements?: readonly { readonly key: string; readonly worstCaseExecutions: unknown }[];
  readonly loops?: readonly { readonly budget: string; readonly max: unknown }[];
}

interface EventLine {
  readonly type?: string;
  readonly dag?: string;
  readonly item?: string;
  readonly placement?: string;
  readonly visit?: number;
  readonly budget?: string;
  readonly attempt?: number;
}

/** A count from `inspect --json`, a number or a string of digits; undefined for "unbounded" and the like. */
function count(value: unknown): bigint | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^[0-9]+$/.test(value)) return BigInt(value);
  return undefined;
}

/** The run's violations: output that is not JSON, a refusal of an accepted document, bounds broken. */
export async function checkRun(
  dir: string,
  run: CommandResult,
  inspect: CommandResult,
): Promise<Violation[]> {
  const violations: Violation[] = [];
  const add = (kind: Violation['kind'], detail: string) => violations.push({ kind, command: 'run', detail });
  if (run.code !== 0 && run.code !== 1) return violations;
  if (run.out.trim() === '') {
    // A refusal of the policy or the input (its options or its item data) is theirs; one of the document
    // contradicts `validate`. An await with no deadline is the policy's to fix (`validate` without a policy
    // cannot know it), and a case runs without one.
    if (
      /not a valid DAG|\bE_(?!(?:POLICY|INPUT|ITEM_DATA|AWAIT_NO_DEADLINE)(?:_[A-Z_]+)?\b)[A-Z_]+/.test(
        run.err,
      )
    ) {
      add(
        'inconsistent',
        `run refused a document validate accepts: ${run.err.split('\n')[0]?.slice(0, 200)}`,
      );
    }
    return violations;
  }
  const result = parseJson(run.out) as
    | {
        status?: string;
        items?: unknown[];
        failures?: { id?: string; placement?: string; error?: { code?: string; message?: string } }[];
        phaseErrors?: { placement?: string; error?: { code?: string; message?: string } }[];
        aborted?: unknown[];
      }
    | undefined;
  if (result === undefined) add('run', `--json printed text that is not JSON: ${run.out.slice(0, 120)}`);
  // E_ENGINE is the engine's own failure: whatever a node does, it must be classified, not crash the engine.
  for (const f of [...(result?.failures ?? []), ...(result?.phaseErrors ?? [])]) {
    if (f.error?.code === 'E_ENGINE')
      add('run', `engine error at '${f.placement}': ${f.error.message?.slice(0, 200)}`);
  }
  const text = (await readCaseFile(dir, 'events.jsonl')) ?? '';
  const events: EventLine[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const event = parseJson(line) as EventLine | undefined;
    if (event === undefined) add('run', `an --events line is not JSON: ${line.slice(0, 120)}`);
    else events.push(event);
  }
  const start = events.find((e) => e.type === 'run.start') as (EventLine & { items?: number }) | undefined;
  if (start === undefined) {
    add('run', 'no run.start event');
    return violations;
  }
  if (result !== undefined && typeof start.items === 'number') {
    const accounted =
      (result.items?.length ?? 0) + (result.failures?.length ?? 0) + (result.aborted?.length ?? 0);
    if (accounted !== start.items) add('run', `${start.items} items entered, ${accounted} accounted for`);
  }
  const figures = parseJson(inspect.out) as InspectJson | undefined;
  const bound = new Map((figures?.placements ?? []).map((p) => [p.key, count(p.worstCaseExecutions)]));
  const max = new Map((figures?.loops ?? []).map((l) => [l.budget, count(l.max)]));
  const root = (e: EventLine) => e.dag === start.dag && typeof e.item === 'string' && !e.item.includes('.');
  const reported = new Set<string>();
  for (const e of events.filter(root)) {
    if (e.type === 'placement.start' && typeof e.visit === 'number' && e.placement !== undefined) {
      const limit = bound.get(e.placement);
      const key = `visits ${e.placement}`;
      if (limit !== undefined && BigInt(e.visit) > limit && !reported.has(key)) {
        reported.add(key);
        add(
          'run',
          `placement '${e.placement}' ran ${e.visit} times for item ${e.item}; inspect promised at most ${limit}`,
        );
      }
    }
    if (e.type === 'retry.scheduled' && typeof e.attempt === 'number' && e.budget !== undefined) {
      const limit = max.get(e.budget);
      const key = `budget ${e.budget}`;
      if (limit !== undefined && BigInt(e.attempt) > limit && !reported.has(key)) {
        reported.add(key);
        add('run', `budget '${e.budget}' spent ${e.attempt} times for item ${e.item}; its max is ${limit}`);
      }
    }
  }
  return violations;
}
