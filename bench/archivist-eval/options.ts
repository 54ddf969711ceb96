/** The command line of the evaluation runner, and the seeded sample of questions it picks. */
import { parseArgs } from 'node:util';
import { seededRandom } from '../../src/policy/random.ts';
import { EVAL_CLASSES, type EvalClass, type EvalQuestion } from './set.ts';

/** What the runner was asked to do. */
export interface EvalOptions {
  readonly classes?: readonly EvalClass[];
  readonly json: boolean;
  readonly sample?: number;
  readonly seed: number;
}

/** The usage line printed with every command-line mistake. */
export const EVAL_USAGE =
  'usage: archivist-eval [--class <name>[,<name>…]] [--json] [--sample <n> [--seed <s>]]';

function integer(value: string | undefined, name: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`--${name} must be an integer of at least ${min}, not '${value}'`);
  return n;
}

/** Parses the runner's arguments; throws an Error whose message is one line for the user. */
export function parseEvalArgs(args: readonly string[]): EvalOptions {
  const { values } = parseArgs({
    args: [...args],
    options: {
      class: { type: 'string', multiple: true },
      json: { type: 'boolean', default: false },
      sample: { type: 'string' },
      seed: { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const classes = (values.class ?? []).flatMap((c) => c.split(',')).map((c) => c.trim());
  for (const c of classes) {
    if (!(EVAL_CLASSES as readonly string[]).includes(c))
      throw new Error(`--class '${c}' is not a class of the set: use one of ${EVAL_CLASSES.join(', ')}`);
  }
  const sample = integer(values.sample, 'sample', 1);
  const seed = integer(values.seed, 'seed', 0) ?? 1;
  return {
    ...(classes.length > 0 ? { classes: classes as EvalClass[] } : {}),
    json: values.json === true,
    ...(sample === undefined ? {} : { sample }),
    seed,
  };
}

/** The questions the options select: those of the classes, then a seeded sample of `sample`, in set order. */
export function selectQuestions(questions: readonly EvalQuestion[], options: EvalOptions): EvalQuestion[] {
  const classes = options.classes;
  const chosen = classes ? questions.filter((q) => classes.includes(q.class)) : [...questions];
  if (options.sample === undefined || options.sample >= chosen.length) return chosen;
  const random = seededRandom(options.seed);
  // A partial Fisher–Yates shuffle of the indices picks the sample; sorting keeps the set's order.
  const index = chosen.map((_, i) => i);
  for (let i = 0; i < options.sample; i++) {
    const j = i + Math.floor(random() * (index.length - i));
    [index[i], index[j]] = [index[j] as number, index[i] as number];
  }
  return index
    .slice(0, options.sample)
    .sort((a, b) => a - b)
    .map((i) => chosen[i] as EvalQuestion);
}
