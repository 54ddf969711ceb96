/**
 * The Archivist's evaluation set: the question files under examples/archivist/eval/, their types, and
 * loading them checked against questions.schema.json.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';

/** The folder of the set's files. */
export const EVAL_FOLDER = fileURLToPath(new URL('../../examples/archivist/eval/', import.meta.url));

/** The schema every question file follows. */
export const EVAL_SCHEMA_FILE = join(EVAL_FOLDER, 'questions.schema.json');

/** The classes of questions, in report order. */
export const EVAL_CLASSES = [
  'fragments',
  'surnames',
  'misses',
  'constraints',
  'author-books',
  'follow-ups',
  'similar',
  'unmet-constraints',
  'series-order',
  'not-books',
  'long-and-scripts',
  'conversations',
] as const;

/** One class of questions. */
export type EvalClass = (typeof EVAL_CLASSES)[number];

/** Conditions every presented book must meet. */
export interface EveryBook {
  readonly authors?: readonly string[];
  readonly notAuthors?: readonly string[];
  readonly minPages?: number;
  readonly maxPages?: number;
  readonly minYear?: number;
  readonly maxYear?: number;
  readonly from?: readonly string[];
}

/** What one turn's answer must and must not contain (see the schema for each check). */
export interface Expectation {
  readonly first?: string;
  readonly include?: readonly string[];
  readonly includeSome?: { readonly ids: readonly string[]; readonly min?: number };
  readonly exclude?: readonly string[];
  readonly every?: EveryBook;
  readonly order?: { readonly ids: readonly string[]; readonly by: 'publication' | 'series' };
  readonly minBooks?: number;
  readonly maxBooks?: number;
  readonly miss?: boolean;
  readonly firstFromPrevious?: number;
  readonly noRepeats?: true;
  readonly says?: readonly string[];
  readonly saysNot?: readonly string[];
  readonly refuses?: boolean;
  readonly asksBack?: boolean;
}

/** One thing the reader types, and what its answer must hold. */
export interface EvalTurn {
  readonly ask: string;
  readonly expect: Expectation;
}

/** A question: one turn, or a conversation of several. */
export interface EvalQuestion {
  readonly id: string;
  readonly class: EvalClass;
  readonly note?: string;
  readonly turns: readonly EvalTurn[];
}

/** One question file. */
export interface EvalFile {
  readonly description?: string;
  readonly questions: readonly EvalQuestion[];
}

/** The JSON files of the set (every `.json` of the folder but the schema), sorted. */
export function evalFiles(folder: string = EVAL_FOLDER): string[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith('.json') && name !== 'questions.schema.json')
    .sort()
    .map((name) => join(folder, name));
}

/** A validator of one question file against the schema; its errors name the file and the JSON pointer. */
export function fileValidator(
  schemaFile: string = EVAL_SCHEMA_FILE,
): (file: string, data: unknown) => string[] {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  const validate = ajv.compile(JSON.parse(readFileSync(schemaFile, 'utf8')) as object);
  return (file, data) =>
    validate(data)
      ? []
      : (validate.errors ?? []).map((e) => `${file}${e.instancePath || '/'}: ${e.message ?? 'is invalid'}`);
}

/**
 * Reads every question file of `folder`, checks each against the schema and ids for uniqueness, and returns
 * the questions in file order. Throws one message listing every problem.
 */
export function loadEvalSet(folder: string = EVAL_FOLDER): EvalQuestion[] {
  const check = fileValidator();
  const problems: string[] = [];
  const questions: EvalQuestion[] = [];
  const seen = new Set<string>();
  for (const file of evalFiles(folder)) {
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      problems.push(`${file}: not JSON: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    const errors = check(file, data);
    problems.push(...errors);
    if (errors.length > 0) continue;
    for (const q of (data as EvalFile).questions) {
      if (seen.has(q.id)) problems.push(`${file}: question id '${q.id}' is used twice`);
      seen.add(q.id);
      questions.push(q);
    }
  }
  if (problems.length > 0) throw new Error(`the evaluation set is broken:\n  ${problems.join('\n  ')}`);
  return questions;
}
