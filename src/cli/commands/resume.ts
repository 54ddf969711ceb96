import type { Command } from 'commander';
import type { CliIO } from '../io.ts';
import {
  addProgressOptions,
  EVENTS_STDOUT_HELP,
  JSON_HELP,
  KEEP_WAITING_HELP,
  NODES_HELP,
  OTEL_HELP,
  POLICY_HELP,
} from '../option-help.ts';
import { addStoreOption } from '../store-option.ts';
import type { SetExit } from './index.ts';

/** The options commander parses for this command. */
export interface ResumeCommandOptions {
  readonly nodes: string;
  readonly store?: string;
  readonly policy?: string;
  readonly events?: string;
  readonly json?: boolean;
  readonly deadline?: string;
  readonly virtualTime?: boolean;
  readonly seed?: string;
  /** Keep the process waiting once every item left is parked at an await (`whenParked: 'wait'`). */
  readonly keepWaiting?: boolean;
  /** `--progress` (true) or `--no-progress` (false); undefined: on a terminal only. */
  readonly progress?: boolean;
  /** Export traces over OTLP/HTTP. */
  readonly otel?: boolean;
}

/**
 * `switchyard resume <run-id> --nodes <module>`: goes on with a recorded run where each item stood, after a
 * crash, a kill or Ctrl-C. The run's DAG is read again from the file it was recorded from (and the
 * documents it embeds from theirs), and must be the same document (`E_RESUME_DAG_CHANGED` otherwise); when
 * the file is gone, the document recorded with the run is used. Prints the summary `run` prints; exit 0
 * when the run completed, 4 when it stops again with its items waiting for answers (as `run`). Refused with one line: an unknown run, a finished one, a changed document, a run
 * another live process holds, a run recorded by a newer version, a node the module no longer registers.
 * @example
 * switchyard resume 3f2c…e1 --nodes nodes/demo.ts
 */
export function registerResume(program: Command, io: CliIO, setExit: SetExit): void {
  const command = program
    .command('resume')
    .description('go on with a recorded run where each item stood (after a crash, a kill or Ctrl-C)')
    .argument('<run-id>', 'the run id `switchyard run` printed (see `switchyard runs`)')
    .requiredOption('--nodes <module>', NODES_HELP)
    .option('--policy <file>', `${POLICY_HELP} (default: the policy the run was recorded with)`)
    .option(
      '--events <file>',
      `${EVENTS_STDOUT_HELP}; this process's events, their sequence numbers going on`,
    )
    .option(
      '--deadline <ms>',
      'the run deadline from now, in milliseconds (default: the one the run started with)',
    )
    .option(
      '--virtual-time',
      'for nodes that do no real I/O: go on on a virtual clock, so what is left of a wait, and the back-offs ' +
        'after it, take no real time',
    )
    .option('--seed <n>', 'seed the back-off jitter of the waits from here on')
    .option('--json', JSON_HELP)
    .option('--keep-waiting', KEEP_WAITING_HELP)
    .option('--otel', OTEL_HELP);
  addStoreOption(addProgressOptions(command)).action(async (runId: string, options: ResumeCommandOptions) => {
    const { resumeAction } = await import('../actions/resume.ts');
    await resumeAction(runId, options, io, setExit);
  });
}
