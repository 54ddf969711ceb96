import { Command, CommanderError, Option } from 'commander';
import { EXIT_PROBLEM, exitCodeOf } from '../../src/cli/exit-code.ts';
import { assertWritable, writeOutput } from '../../src/cli/output.ts';
import { refusalLine, usageLine } from '../../src/cli/refusal.ts';
import { VERSION } from '../../src/cli/version.ts';
import { isSwitchyardError, SwitchyardError } from '../../src/errors.ts';
import { formatOfPath } from '../../src/render/output-format.ts';
import { runChat } from './chat.ts';
import type { AskOutcome } from './engine.ts';
import { type ArchivistEnv, processEnv } from './environment.ts';
import { LLMS } from './model-options.ts';
import { renderRun } from './render.ts';
import { openSession, type SessionOptions } from './session.ts';
import { traceLines } from './trace.ts';

interface CommonFlags {
  llm: string;
  baseUrl?: string;
  model?: string;
  apiKeyEnv?: string;
  flaky?: string;
  seed: string;
  catalog?: string;
  trace?: boolean;
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
  const seed = Number(flags.seed);
  if (!Number.isInteger(seed)) throw usage(`--seed must be an integer, not '${flags.seed}'`);
  let flaky: number | undefined;
  if (flags.flaky !== undefined) {
    flaky = Number(flags.flaky);
    if (!(flaky >= 0 && flaky <= 1))
      throw usage(`--flaky must be a rate between 0 and 1, not '${flags.flaky}'`);
  }
  const catalog = flags.catalog ?? io.env.ARCHIVIST_CATALOG;
  return {
    llm: flags.llm,
    seed,
    ...(flaky === undefined ? {} : { flaky }),
    ...(flags.baseUrl === undefined ? {} : { baseUrl: flags.baseUrl }),
    ...(flags.model === undefined ? {} : { model: flags.model }),
    ...(flags.apiKeyEnv === undefined ? {} : { apiKeyEnv: flags.apiKeyEnv }),
    ...(catalog === undefined ? {} : { catalog }),
  };
}

function addCommonOptions(command: Command): Command {
  return command
    .addOption(new Option('--llm <name>', `the model: ${LLMS.join(', ')}`).default('offline'))
    .option('--base-url <url>', 'the endpoint of an OpenAI-compatible server, or of Ollama')
    .option('--model <name>', 'the model name for openai or ollama')
    .option('--api-key-env <name>', 'the environment variable holding the API key (default OPENAI_API_KEY)')
    .option('--flaky <rate>', 'make this share of model calls fail as real providers do (0–1)')
    .option('--seed <n>', 'seed of the fault injection and back-off jitter', '1')
    .option('--catalog <file>', 'the catalog JSON file (default the bundled one)')
    .option('--trace', 'print the path the run took: placements, retries, salvages');
}

function jsonOf(question: string, model: string, outcome: AskOutcome): string {
  const { events: _events, memory: _memory, ...rest } = outcome;
  return JSON.stringify({ question, model, ...rest }, null, 2);
}

async function ask(words: readonly string[], flags: AskFlags, io: ArchivistEnv): Promise<number> {
  const question = words.join(' ').trim();
  if (question === '')
    throw usage('the question is empty: ask something, e.g. archivist ask "books by George Orwell"');
  // Every output is checked before the run, so a wrong path costs no model calls and loses no answer.
  if (flags.render !== undefined) {
    formatOfPath(flags.render);
    await assertWritable(flags.render, io.cwd);
  }
  if (flags.events !== undefined) await assertWritable(flags.events, io.cwd);
  const session = await openSession(sessionOptions(flags, io), io);
  const outcome = await session.engine.ask(question);
  if (flags.json) {
    io.out(jsonOf(question, session.model.name, outcome));
  } else {
    if (flags.trace) io.out(['Trace:', ...traceLines(outcome.events), ''].join('\n'));
    io.out(outcome.answer);
  }
  if (flags.events !== undefined) {
    const lines = outcome.events.map((e) => JSON.stringify(e)).join('\n');
    await writeOutput(flags.events, `${lines}\n`, io.cwd);
  }
  if (flags.render !== undefined) await renderRun(flags.render, outcome.events, io.cwd);
  return outcome.status === 'completed' ? 0 : 1;
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
  addCommonOptions(
    program
      .command('ask')
      .description('answer one question')
      .argument('[question...]', 'the question, e.g. "books by George Orwell"'),
  )
    .option('--events <file>', 'write the run events, one JSON object a line')
    .option('--render <file.svg>', "draw the DAG with this run's path")
    .option('--json', 'print a machine-readable result')
    .action(async (words: string[], flags: AskFlags) => {
      exitCode = await ask(words, flags, io);
    });
  addCommonOptions(
    program.command('chat').description('an interactive session that remembers the conversation'),
  ).action(async (flags: CommonFlags) => {
    const session = await openSession(sessionOptions(flags, io), io);
    exitCode = await runChat(session, io, { trace: flags.trace === true });
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
