/** Runs the evaluation: asks each selected question, reads and scores its answers, sums the scores. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type EvalBook, readAnswer, titleIndex } from './answer.ts';
import { askQuestion } from './drive.ts';
import { type EvalReport, summarise } from './report.ts';
import { type QuestionScore, scoreQuestion } from './score.ts';
import type { EvalQuestion } from './set.ts';

/** The bundled catalog the set is written against. */
export const EVAL_CATALOG = fileURLToPath(new URL('../../examples/archivist/catalog.json', import.meta.url));

/** The catalog's books by id. */
export function loadEvalCatalog(file: string = EVAL_CATALOG): Map<string, EvalBook> {
  const books = JSON.parse(readFileSync(file, 'utf8')) as EvalBook[];
  return new Map(books.map((b) => [b.id, b]));
}

/** One question's score and what each turn answered. */
export interface EvalOutcome extends QuestionScore {
  readonly answers: readonly {
    readonly text: string;
    readonly books: readonly string[];
    readonly miss: boolean;
  }[];
}

/** Asks every question in turn with the offline Archivist and scores it. */
export async function runEvaluation(
  questions: readonly EvalQuestion[],
  books: ReadonlyMap<string, EvalBook> = loadEvalCatalog(),
): Promise<{ report: EvalReport; outcomes: EvalOutcome[] }> {
  const find = titleIndex([...books.values()]);
  const outcomes: EvalOutcome[] = [];
  for (const question of questions) {
    const output = await askQuestion(question);
    const answers = output.turns.map((t) => readAnswer(t.text, find, t.json));
    const score = scoreQuestion(question, answers, books);
    const reasons = output.ok ? score.reasons : [output.error, ...score.reasons];
    outcomes.push({
      ...score,
      ...(output.ok ? {} : { score: 0 as const }),
      reasons,
      answers: answers.map(({ text, books: shown, miss }) => ({ text, books: shown, miss })),
    });
  }
  return { report: summarise(outcomes), outcomes };
}
