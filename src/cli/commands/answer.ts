import type { Command } from 'commander';
import type { CliIO } from '../io.ts';
import { addProgressOptions, KEEP_WAITING_HELP, NODES_HELP } from '../option-help.ts';
import { addStoreOption } from '../store-option.ts';
import type { SetExit } from './index.ts';

/** The options commander parses for `answer`. */
export interface AnswerCommandOptions {
  /** JSON, `@file.json` or `-`. */
  readonly data?: string;
  readonly store?: string;
  /** The node module a waiting run is resumed with. */
  readonly nodes?: string;
  /** `--no-resume`: false. */
  readonly resume?: boolean;
  readonly keepWaiting?: boolean;
  readonly progress?: boolean;
  /** The Redis of the workers that carry the run (its run store under $SWITCHYARD_REDIS_PREFIX). */
  readonly redis?: string;
  /** With `--redis`: the queue the run was submitted to. */
  readonly queue?: string;
}

/**
 * `switchyard answer <run> <token> <output>`: answers an item parked at an await placement of a recorded
 * run. The answer is checked and recorded in the run's store; a run that waits with no process
 * (status `waiting`) is then resumed here as `switchyard resume` does (needs `--nodes`; `--no-resume`
 * only records), and a run a live process holds takes it from the store. Refusals (`E_ANSWER` with the
 * expected outputs, `E_ALREADY_ANSWERED`, `E_UNKNOWN_TOKEN`, an unknown or ended run, `--data` that is
 * not JSON) are one line, exit 1, and write nothing. Exit 0 once recorded, or the resume's exit code.
 * With `--redis <url>` (and `--queue`, as `run --redis` takes them) it answers a run `switchyard worker`s
 * carry on that Redis: a parked item is taken by the workers at once, an answer for one yet to park is kept.
 * @example
 * switchyard answer 3f2c…e1 aw-0123456789abcdef01234567 approved --data '{"note":"ship it"}' --nodes nodes.ts
 */
export function registerAnswer(program: Command, io: CliIO, setExit: SetExit): void {
  const command = program
    .command('answer')
    .description('answer an item waiting at an await placement of a recorded run, and move the run on')
    .argument('<run-id>', 'the run id (see `switchyard runs --status waiting`)')
    .argument('<token>', 'the answer token of the parked item (see `switchyard runs show <run-id>`)')
    .argument('<output>', 'one of the answers the await placement expects, e.g. approved')
    .option(
      '--data <json>',
      'data for the item, kept at the placement’s into: JSON, @file.json, or - (or @-) for standard input',
    )
    .option('--nodes <module>', `${NODES_HELP}, to resume a run that waits with no process`)
    .option('--no-resume', 'record the answer only; the run takes it when it is resumed')
    .option('--keep-waiting', KEEP_WAITING_HELP)
    .option(
      '--redis <url>',
      'answer a run carried by `switchyard worker`s on this Redis (redis://host:port; key prefix $SWITCHYARD_REDIS_PREFIX, default switchyard:)',
    )
    .option('--queue <name>', 'with --redis: the queue the run was submitted to (default: switchyard)');
  addStoreOption(addProgressOptions(command)).action(
    async (runId: string, token: string, output: string, options: AnswerCommandOptions) => {
      const { answerAction } = await import('../actions/answer.ts');
      await answerAction({ runId, token, output }, options, io, setExit);
    },
  );
}
