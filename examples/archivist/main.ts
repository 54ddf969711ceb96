import { Command, CommanderError, Option } from 'commander';
import { EXIT_MODEL_REFUSED, EXIT_PROBLEM, exitCodeOf } from '../../src/cli/exit-code.ts';
import { wholeNumber } from '../../src/cli/messages.ts';
import { EVENTS_HELP, JSON_HELP, NO_STORE_HELP, OTEL_HELP } from '../../src/cli/option-help.ts';
import { assertWritable, writeOutput } from '../../src/cli/output.ts';
import { refusalLine, usageLine } from '../../src/cli/refusal.ts';
import { NOT_STDIO, refuseDashOptions } from '../../src/cli/stdio.ts';
import { STORE_FILE_HELP } from '../../src/cli/store-option.ts';
import { isSwitchyardError, SwitchyardError } from '../../src/errors.ts';
import { formatOfPath } from '../../src/render/output-format.ts';
import { VERSION } from '../../src/version.ts';
import type { AskOutcome } from './engine.ts';
import { type ArchivistEnv, processEnv } from './environment.ts';
import { LLMS } from './model-options.ts';
import { waitNotice } from './provider-notices.ts';
import { questionProblem } from './question.ts';
import { openSession, type Session, type SessionOptions } from './session.ts';
import { assertStoreExists, runsShowCommand, storePathFor } from './store.ts';
import { traceLines } from './trace.ts';

interface CommonFlags {
  llm: string;
  baseUrl?: string;
  model?: string;
  apiKeyEnv?: string;
  flaky?: string;
  rateLimit?: string;
  maxTokens?: string;
  seed: string;
  catalog?: string;
  trace?: boolean;
  /** A path, or false for `--no-store`. */
  store?: string | false;
  otel?: boolean;
}

interface ChatFlags extends CommonFlags {
  resume?: string | true;
}

interface AskFlags extends CommonFlags {
  events?: string;
  render?: string;
  json?: boolean;
}

function usage(message: string): SwitchyardError {
  return new SwitchyardError('E_USAGE', message);
}

function sessionOptions(flags: CommonFlags, io: ArchivistEnv): SessionOptions {
  const seed = wholeNumber('--seed', flags.seed);
  let flaky: number | undefined;
  if (flags.flaky !== undefined) {
    flaky = Number(flags.flaky);
    if (!(flaky >= 0 && flaky <= 1))
      throw usage(`--flaky must be a rate between 0 and 1, not '${flags.flaky}'`);
  }
  let rateLimit: number | undefined;
  if (flags.rateLimit !== undefined) {
    rateLimit = Number(flags.rateLimit);
    if (!(Number.isInteger(rateLimit) && rateLimit >= 1 && rateLimit <= 10_000))
      throw usage(
        `--rate-limit must be a whole number of requests per second from 1 to 10000, not '${flags.rateLimit}'`,
      );
  }
  let maxTokens: number | undefined;
  if (flags.maxTokens !== undefined) {
    maxTokens = Number(flags.maxTokens);
    if (!(Number.isInteger(maxTokens) && maxTokens >= 1 && maxTokens <= 100_000))
      throw usage(`--max-tokens must be a whole number from 1 to 100000, not '${flags.maxTokens}'`);
  }
  const catalog = flags.catalog ?? io.env.ARCHIVIST_CATALOG;
  const store = storePathFor(flags.store, io.env, io.cwd);
  return {
    ...(store === undefined ? {} : { store }),
    llm: flags.llm,
    seed,
    ...(flaky === undefined ? {} : { flaky }),
    ...(rateLimit === undefined ? {} : { rateLimit }),
    ...(maxTokens === undefined ? {} : { maxTokens }),
    ...(flags.baseUrl === undefined ? {} : { baseUrl: flags.baseUrl }),
    ...(flags.model === undefined ? {} : { model: flags.model }),
    ...(flags.apiKeyEnv === undefined ? {} : { apiKeyEnv: flags.apiKeyEnv }),
    ...(catalog === undefined ? {} : { catalog }),
    ...(flags.otel === true ? { otel: true } : {}),
  };
}

function addCommonOptions(command: Command): Command {
  return command
    .addOption(new Option('--llm <name>', `the model: ${LLMS.join(', ')}`).default('offline'))
    .option('--base-url <url>', 'the endpoint of an OpenAI-compatible server, or of Ollama')
    .option('--model <name>', 'the model name for openai or ollama')
    .option('--api-key-env <name>', 'the environment variable holding the API key (default OPENAI_API_KEY)')
    .option('--flaky <rate>', 'make this share of model calls fail as real providers do (0–1)')
    .option(
      '--rate-limit <n>',
      "simulate a provider's rate limit shared by every model call: n requests per second, 429 with Retry-After past it",
    )
    .option('--max-tokens <n>', 'the cap on the tokens of one model answer (default 600)')
    .option('--seed <n>', 'seed of the fault injection and back-off jitter', '1')
    .option('--catalog <file>', 'the catalog JSON file (default the bundled one)')
    .option('--trace', 'print the path the run took: placements, retries, salvages')
    .option(
      '--store <path>',
      `${STORE_FILE_HELP} (default: $ARCHIVIST_STORE, $SWITCHYARD_STORE, else runs.db in $XDG_DATA_HOME/archivist or ~/.local/share/archivist); switchyard runs show <run-id> --store <path> explains an answer`,
    )
    .option('--no-store', NO_STORE_HELP)
    .option('--otel', OTEL_HELP.replace('default switchyard', 'default archivist'));
}

/** Runs `use` with the session, then closes its store. */
async function withSession<T>(session: Session, use: (session: Session) => Promise<T>): Promise<T> {
  try {
    return await use(session);
  } finally {
    await session.close();
  }
}

/**
 * The `--json` result; `refused` holds the provider's refusal lines when the answer came without the model,
 * `trace` the trace's lines under `--trace`.
 */
function jsonOf(
  question: string,
  model: string,
  outcome: AskOutcome,
  refused: readonly string[],
  trace: readonly string[] | undefined,
): string {
  const { events: _events, memory: _memory, ...rest } = outcome;
  return JSON.stringify(
    {
      question,
      model,
      ...rest,
      ...(refused.length > 0 ? { refused } : {}),
      ...(trace === undefined ? {} : { trace: trace.map((line) => line.trim()) }),
    },
    null,
    2,
  );
}

async function ask(words: readonly string[], flags: AskFlags, io: ArchivistEnv): Promise<number> {
  const question = words.join(' ').trim();
  if (question === '')
    throw usage('the question is empty: ask something, e.g. archivist ask "books by George Orwell"');
  const tooLong = questionProblem(question);
  if (tooLong !== undefined) throw usage(tooLong);
  // Every output is checked before the run, so a wrong path costs no model calls and loses no answer.
  if (flags.render !== undefined) {
    formatOfPath(flags.render);
    await assertWritable(flags.render, io.cwd);
  }
  if (flags.events !== undefined) await assertWritable(flags.events, io.cwd);
  // A refusal of the key or the model is told after the run, when no spinner is drawing.
  const refusals: string[] = [];
  const options = { ...sessionOptions(flags, io), onRefused: (line: string) => refusals.push(line) };
  const session = await openSession(options, io);
  const outcome = await withSession(session, (s) =>
    s.engine.ask(question, undefined, (event) => {
      const notice = waitNotice(event, s.model.name);
      if (notice !== undefined) io.err(notice);
    }),
  );
  for (const line of refusals) io.err(line);
  // The trace goes to standard error (or into the JSON), so standard output holds the answer alone.
  const trace = flags.trace ? traceLines(outcome.events) : undefined;
  if (trace !== undefined && !flags.json) io.err(['Trace:', ...trace].join('\n'));
  if (flags.trace && outcome.runId && session.store) {
    io.err(
      `archivist: run ${outcome.runId} is recorded in ${session.store.shown}: ${runsShowCommand(outcome.runId, session.store.shown)} explains the answer`,
    );
  }
  if (flags.json) {
    io.out(jsonOf(question, session.model.name, outcome, refusals, trace));
  } else {
    io.out(outcome.answer);
  }
  if (flags.events !== undefined) {
    const lines = outcome.events.map((e) => JSON.stringify(e)).join('\n');
    await writeOutput(flags.events, `${lines}\n`, io.cwd);
  }
  if (flags.render !== undefined) {
    // Drawing loads the renderer, which a plain question does not need.
    const { renderRun } = await import('./render.ts');
    await renderRun(flags.render, outcome.events, io.cwd, io.env);
  }
  if (outcome.status !== 'completed') return EXIT_PROBLEM;
  return refusals.length > 0 ? EXIT_MODEL_REFUSED : 0;
}

async function chat(flags: ChatFlags, io: ArchivistEnv): Promise<number> {
  const options = sessionOptions(flags, io);
  if (flags.resume !== undefined) {
    if (options.store === undefined) throw usage('--resume needs the run store: leave out --no-store');
    assertStoreExists(options.store, io.cwd);
  }
  const [{ runChat }, { loadConversation, newConversation }] = await Promise.all([
    import('./chat.ts'),
    import('./conversation.ts'),
  ]);
  const warnings: string[] = [];
  const session = await openSession({ ...options, onRefused: (line) => warnings.push(line) }, io);
  return withSession(session, async (s) => {
    const recorded = s.store;
    const conversation =
      recorded === undefined
        ? undefined
        : flags.resume === undefined
          ? newConversation()
          : await loadConversation(
              recorded.store,
              flags.resume === true ? undefined : flags.resume,
              recorded.shown,
            );
    return runChat(s, io, {
      trace: flags.trace === true,
      warnings,
      ...(conversation === undefined ? {} : { conversation }),
    });
  });
}

/**
 * Runs the `archivist` command line and resolves to the exit code. Mistakes print one line and exit with
 * the code of `exitCodeOf` (2 for a wrong command line, 1 for a problem in what it names); no stack trace is
 * ever printed.
 * @example
 * process.exitCode = await main(process.argv);
 */
export async function main(argv: readonly string[], io: ArchivistEnv = processEnv()): Promise<number> {
  let exitCode = 0;
  const program = new Command('archivist')
    .description('Answers questions about books from a local catalog, with Switchyard DAGs.')
    .version(VERSION, '-V, --version', 'print the version of archivist')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.out(s),
      writeErr: (s) => io.err(s),
      outputError: (s, write) => write(usageLine('archivist', s)),
    });
  refuseDashOptions(program, {
    store: NOT_STDIO.store as string,
    catalog: 'a catalog JSON file',
    events: 'a file to write the events to (the answer is on standard output)',
    render: 'an .svg, .png or .mmd file',
  });
  addCommonOptions(
    program
      .command('ask')
      .description('answer one question')
      .argument('[question...]', 'the question, e.g. "books by George Orwell"'),
  )
    .option('--events <file>', EVENTS_HELP)
    .option('--render <file.svg>', "draw the DAG with this run's path")
    .option('--json', JSON_HELP)
    .action(async (words: string[], flags: AskFlags) => {
      exitCode = await ask(words, flags, io);
    });
  addCommonOptions(
    program.command('chat').description('an interactive session that remembers the conversation'),
  )
    .option(
      '--resume [conversation]',
      'go on with a recorded conversation (default the most recent one), after a restart too',
    )
    .action(async (flags: ChatFlags) => {
      exitCode = await chat(flags, io);
    });
  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) return exitCodeOf(error) ?? EXIT_PROBLEM;
    if (isSwitchyardError(error)) {
      io.err(refusalLine('archivist', error.message, error.code));
      return exitCodeOf(error) ?? EXIT_PROBLEM;
    }
    io.err(`archivist: unexpected failure: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT_PROBLEM;
  }
  return exitCode;
}
