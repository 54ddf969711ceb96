import type { Command } from 'commander';
import { ENDED_STATUSES } from '../../store/query.ts';
import type { RunStatus } from '../../store/types.ts';
import type { CliIO } from '../io.ts';
import { addStoreOption } from '../store-option.ts';

/** The statuses `runs --status` takes. */
export const STATUSES: readonly RunStatus[] = ['running', 'waiting', 'completed', 'failed', 'aborted'];

/** How many runs `runs` lists without `--limit`. */
export const DEFAULT_LIMIT = 20;

/** The options commander parses for `runs` and its subcommands. */
export interface RunsCliOptions {
  store?: string;
  status?: string[];
  dag?: string;
  limit?: string;
  json?: boolean;
  olderThan?: string;
  /** Read the runs from the Redis run store at this URL instead of SQLite. */
  redis?: string;
  /** `runs abort`: the queue the run's workers take jobs from. */
  queue?: string;
  /** `runs abort`: the reason recorded with the abort. */
  reason?: string;
  /** `runs abort --no-wait`: false. */
  wait?: boolean;
}

/** The help text of `--redis <url>`. */
const REDIS_HELP =
  'read the runs from the Redis run store at this URL (redis://host:port; key prefix $SWITCHYARD_REDIS_PREFIX, default switchyard:) instead of the SQLite store';

/** Adds `--store <path>` and `--redis <url>` to a command. */
function addStores(command: Command): Command {
  return addStoreOption(command).option('--redis <url>', REDIS_HELP);
}

/** The implementations of `runs` and its subcommands, loaded only when one of them runs. */
const actions = () => import('../actions/runs.ts');

/** The options given to a subcommand and to `runs` itself (commander gives `runs` those it knows). */
const optionsOf = (command: Command): RunsCliOptions => command.optsWithGlobals<RunsCliOptions>();

/**
 * `switchyard runs [show <id> | events <id> | prune --older-than <age> | abort <id>]`: the runs recorded in a
 * store (SQLite, or Redis with `--redis <url>`), one run with each item's place, retries, waits and budgets,
 * a run's events as JSONL, deleting old runs, and aborting a run carried by workers on a Redis.
 * @example
 * await main(['node', 'switchyard', 'runs', '--status', 'failed', '--json']);
 */
export function registerRuns(program: Command, io: CliIO): void {
  const runs = addStores(
    program
      .command('runs')
      .description('list the runs recorded in the run store, newest first')
      .option('--status <status...>', `only runs with one of these statuses (${STATUSES.join(', ')})`)
      .option('--dag <iri>', 'only runs of the DAG with this IRI')
      .option('--limit <n>', `at most this many runs (default ${DEFAULT_LIMIT})`)
      .option('--json', 'print one JSON document instead of a table'),
  ).action(async (_options: RunsCliOptions, command: Command) => {
    await (await actions()).listRunsAction(optionsOf(command), io);
  });

  addStores(
    runs
      .command('show')
      .description("one run: its DAG, hashes and times, and each item's place, retries, waits and budgets")
      .argument('<id>', 'the run id (see switchyard runs)')
      .option('--json', 'print one JSON document'),
  ).action(async (id: string, _options: RunsCliOptions, command: Command) => {
    await (await actions()).showRunAction(id, optionsOf(command), io);
  });

  addStores(
    runs
      .command('events')
      .description('print the events recorded for a run as JSONL, the lines `run --events` writes')
      .argument('<id>', 'the run id (see switchyard runs)'),
  ).action(async (id: string, _options: RunsCliOptions, command: Command) => {
    await (await actions()).runEventsAction(id, optionsOf(command), io);
  });

  addStores(
    runs
      .command('prune')
      .description('delete ended runs created longer ago than an age, and give the space back')
      .requiredOption('--older-than <age>', 'an age: 30d, 12h, 15m or 90s')
      .option(
        '--status <status...>',
        `only runs with these statuses (default: ${ENDED_STATUSES.join(', ')}; waiting only when named)`,
      ),
  ).action(async (_options: RunsCliOptions, command: Command) => {
    await (await actions()).pruneRunsAction(optionsOf(command), io);
  });

  addStores(
    runs
      .command('abort')
      .description(
        'abort a run carried by `switchyard worker`s on a Redis (needs --redis), from any machine, and wait for it to end',
      )
      .argument('<id>', 'the run id (see switchyard runs --redis <url>)')
      .option('--queue <name>', 'the queue the run was submitted to (default: switchyard)')
      .option('--reason <text>', 'the reason recorded with the abort')
      .option('--no-wait', 'ask for the abort and return at once, without waiting for the run to end'),
  ).action(async (id: string, _options: RunsCliOptions, command: Command) => {
    await (await actions()).abortRunAction(id, optionsOf(command), io);
  });
}
