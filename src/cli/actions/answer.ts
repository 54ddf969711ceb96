import type { ParkedItem } from '../../awaits/desk.ts';
import type { AnswerReceipt } from '../../awaits/request.ts';
import { storedParked } from '../../awaits/stored.ts';
import { isSwitchyardError, SwitchyardError } from '../../errors.ts';
import { systemClock } from '../../policy/clock.ts';
import { createDispatcher } from '../../runtime/dispatcher.ts';
import { isLive } from '../../store/lease.ts';
import type { Lease, RunStatus } from '../../store/types.ts';
import { readAnswerData } from '../answer-data.ts';
import type { AnswerCommandOptions } from '../commands/answer.ts';
import type { SetExit } from '../commands/index.ts';
import { EXIT_OK } from '../exit-code.ts';
import type { CliIO } from '../io.ts';
import { shellWord } from '../parked.ts';
import { openResumeStore, resumeCommand } from '../run-store.ts';
import { type AnswerArguments, answeredText } from './answer-text.ts';
import { resumeAction } from './resume.ts';

/** What the store says of the run once the answer is recorded. */
interface Recorded {
  readonly receipt: AnswerReceipt;
  readonly status: RunStatus;
  readonly lease: Lease | undefined;
  readonly path: string;
}

/**
 * Refuses, for a run whose every item left is parked, a token none of them holds: nothing else of the run
 * moves that could park with it, so it is a mistyped or stale token.
 */
function checkParkedToken(args: AnswerArguments, parked: readonly ParkedItem[]): void {
  if (!/^aw-[0-9a-f]{24}$/u.test(args.token) || parked.some((p) => p.token === args.token)) return;
  const tokens = parked.map((p) => `${p.token} (item ${p.item} at '${p.placement}')`).join(', ');
  throw new SwitchyardError(
    'E_UNKNOWN_TOKEN',
    `no item of run '${args.runId}' waits with token ${args.token}; ${tokens === '' ? 'none waits for an answer' : `the items waiting hold ${tokens}`} (see \`switchyard runs show ${args.runId}\`)`,
  );
}

/** Checks and records the answer in the run's store; a refusal writes nothing. */
async function record(
  args: AnswerArguments,
  data: unknown,
  options: AnswerCommandOptions,
  io: CliIO,
): Promise<Recorded> {
  const { store, path } = await openResumeStore(options.store, io.cwd);
  try {
    const before = await store.getRun(args.runId);
    if (before?.status === 'waiting') checkParkedToken(args, await storedParked(store, args.runId));
    const receipt = await createDispatcher({ store, nodes: [] }).answer({
      runId: args.runId,
      token: args.token,
      output: args.output,
      ...(data === undefined ? {} : { data }),
    });
    const run = await store.getRun(args.runId);
    return { receipt, status: run?.status ?? 'running', lease: await store.getLease(args.runId), path };
  } finally {
    await store.close();
  }
}

/** The line for an answer a live process takes from the store. */
function takenBy(runId: string, lease: Lease): string {
  return `recorded: the process running ${runId} (pid ${lease.pid} on ${lease.host}) takes it`;
}

/**
 * Carries out `switchyard answer <run> <token> <output>` (described in commands/answer.ts): records the
 * answer, then resumes a run that waits with no process, as `switchyard resume` does; with `--redis`, answers
 * a run the workers on that Redis carry (see answer-redis.ts).
 */
export async function answerAction(
  args: AnswerArguments,
  options: AnswerCommandOptions,
  io: CliIO,
  setExit: SetExit,
): Promise<void> {
  const data = await readAnswerData(options.data, io);
  if (options.redis !== undefined) {
    const { redisAnswerAction } = await import('./answer-redis.ts');
    await redisAnswerAction(args, data, options, io, setExit);
    return;
  }
  const { receipt, status, lease, path } = await record(args, data, options, io);
  const said = answeredText(receipt);
  const { runId } = args;
  const now = systemClock.wallNow();
  if (lease !== undefined && isLive(lease, now)) {
    io.out(`${said}; ${takenBy(runId, lease)}`);
    setExit(EXIT_OK);
    return;
  }
  // A placeholder the user fills in, shown unquoted.
  const again = resumeCommand(runId, options.nodes ?? '<module>', path, io.cwd).replace(
    "'<module>'",
    '<module>',
  );
  if (status !== 'waiting' || options.resume === false || options.nodes === undefined) {
    const why =
      status === 'waiting'
        ? 'the run waits with no process'
        : `run ${runId} is ${status} and no process holds it`;
    io.out(`${said}; recorded: ${why}; it takes the answer when it goes on: ${again}`);
    setExit(EXIT_OK);
    return;
  }
  io.out(`${said}; run ${runId} goes on`);
  try {
    await resumeAction(
      runId,
      {
        nodes: options.nodes,
        store: path,
        ...(options.keepWaiting === undefined ? {} : { keepWaiting: options.keepWaiting }),
        ...(options.progress === undefined ? {} : { progress: options.progress }),
      },
      io,
      setExit,
    );
  } catch (error) {
    // Another process (another answer, most likely) resumed the run first: it takes this answer too.
    if (!(isSwitchyardError(error) && error.code === 'E_STORE_LEASE_HELD')) throw error;
    io.out(
      `recorded: another process took run ${shellWord(runId)} on first and takes the answer (${error.message})`,
    );
    setExit(EXIT_OK);
  }
}
