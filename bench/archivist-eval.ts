/**
 * The Archivist's evaluation: asks the offline Archivist every question of examples/archivist/eval/ and
 * prints the score per class and in total, with each failing question and why. A benchmark, not a test: it
 * reports the score and exits 0 whatever it is; it exits 1 only when it cannot run.
 *
 * node --import tsx bench/archivist-eval.ts [--class fragments,misses] [--json] [--sample 20 --seed 7]
 */
import { EVAL_USAGE, parseEvalArgs, selectQuestions } from './archivist-eval/options.ts';
import { formatReport } from './archivist-eval/report.ts';
import { runEvaluation } from './archivist-eval/run.ts';
import { loadEvalSet } from './archivist-eval/set.ts';

async function evaluate(args: readonly string[]): Promise<number> {
  let options: ReturnType<typeof parseEvalArgs>;
  try {
    options = parseEvalArgs(args);
  } catch (error) {
    process.stderr.write(
      `archivist-eval: ${error instanceof Error ? error.message : String(error)}\n${EVAL_USAGE}\n`,
    );
    return 2;
  }
  const questions = selectQuestions(loadEvalSet(), options);
  const started = performance.now();
  const { report, outcomes } = await runEvaluation(questions);
  const seconds = (performance.now() - started) / 1000;
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ ...report, seconds, outcomes }, null, 2)}\n`);
  } else {
    process.stdout.write(
      `${formatReport(report)}\n(${questions.length} questions in ${seconds.toFixed(1)} s)\n`,
    );
  }
  return 0;
}

try {
  process.exitCode = await evaluate(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`archivist-eval: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
