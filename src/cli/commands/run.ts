import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { finished } from 'node:stream/promises';
import type { Command } from 'commander';
import { isSwitchyardError, SwitchyardError } from '../../errors.ts';
import { loadPolicyFile } from '../../policy/load.ts';
import { seededRandom } from '../../policy/random.ts';
import type { RuntimePolicy } from '../../policy/types.ts';
import { createVirtualClock } from '../../policy/virtual-clock.ts';
import { createDispatcher } from '../../runtime/dispatcher.ts';
import type { RunEvent } from '../../runtime/events.ts';
import type { RunResult } from '../../runtime/run.ts';
import { formatDuration, plural } from '../format.ts';
import type { CliIO } from '../io.ts';
import { loadValidDag } from '../load-one.ts';
import { loadNodeModule } from '../node-modules.ts';
import { displayPath, openOutput, writeError } from '../output.ts';
import type { SetExit } from './index.ts';

interface RunCommandOptions {
  readonly nodes: string;
  readonly input?: string;
  readonly policy?: string;
  readonly events?: string;
  readonly deadline?: string;
  readonly json?: boolean;
  readonly virtualTime?: boolean;
  readonly seed?: string;
}

/**
 * Parses `--input`: JSON text, or `@file.json`; an object is one item, a non-empty array of objects is
 * several. Without `--input` (`text` undefined) the run has one empty item.
 */
async function readInput(text: string | undefined, cwd: string): Promise<Record<string, unknown>[]> {
  if (text === undefined) return [{}];
  let source = text;
  let where = '--input';
  if (text.startsWith('@')) {
    const file = resolve(cwd, text.slice(1));
    where = text.slice(1);
    try {
      source = await readFile(file, 'utf8');
    } catch {
      throw new SwitchyardError('E_INPUT', `cannot read input file ${where}; check the path after '@'`);
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    throw new SwitchyardError(
      'E_INPUT',
      `${where} is not JSON (${(error as Error).message}); give an object or an array of objects`,
    );
  }
  const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (isObject(value)) return [value as Record<string, unknown>];
  if (Array.isArray(value) && value.length === 0) {
    throw new SwitchyardError(
      'E_INPUT',
      `${where} has no items: give an object (one item) or a non-empty array of objects`,
    );
  }
  if (Array.isArray(value) && value.every(isObject)) return value as Record<string, unknown>[];
  throw new SwitchyardError(
    'E_INPUT',
    `${where} must be a JSON object (one item) or an array of objects (several items)`,
  );
}

/** Loads a policy file, its messages naming the path as the user would see it. */
async function loadPolicyAt(path: string, cwd: string): Promise<RuntimePolicy> {
  try {
    return await loadPolicyFile(path);
  } catch (error) {
    if (!isSwitchyardError(error)) throw error;
    const shown = displayPath(path, cwd);
    const message = error.message.replaceAll(path, shown);
    throw new SwitchyardError(error.code, message, { cause: error, problems: error.problems });
  }
}

async function policyFor(
  dagFile: string,
  option: string | undefined,
  cwd: string,
): Promise<{ policy: RuntimePolicy | undefined; from: string | undefined }> {
  if (option !== undefined) {
    const path = resolve(cwd, option);
    return { policy: await loadPolicyAt(path, cwd), from: displayPath(path, cwd) };
  }
  const beside = join(dirname(dagFile), `${basename(dagFile, extname(dagFile))}.policy.json`);
  if (!existsSync(beside)) return { policy: undefined, from: undefined };
  return { policy: await loadPolicyAt(beside, cwd), from: displayPath(beside, cwd) };
}

/** The `--events` file: one JSON line per event; `close` flushes it and reports a failed write as `E_WRITE`. */
async function openEvents(
  path: string,
  cwd: string,
): Promise<{ write: (event: RunEvent) => void; close: () => Promise<void> }> {
  const stream = (await openOutput(path, cwd)).createWriteStream();
  let failure: unknown;
  stream.on('error', (error) => {
    failure ??= error;
  });
  return {
    write: (event) => {
      if (failure === undefined) stream.write(`${JSON.stringify(event)}\n`);
    },
    close: async () => {
      if (failure === undefined) {
        await finished(stream.end()).catch((error: unknown) => {
          failure ??= error;
        });
      } else stream.destroy();
      if (failure !== undefined) throw writeError(resolve(cwd, path), failure, cwd);
    },
  };
}

function parseSeed(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const seed = Number(text);
  if (!Number.isSafeInteger(seed)) {
    throw new SwitchyardError('E_USAGE', `--seed must be a whole number, not '${text}'`);
  }
  return seed;
}

function parseDeadline(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = Number(text);
  if (!Number.isFinite(ms) || ms <= 0) {
    throw new SwitchyardError(
      'E_USAGE',
      `--deadline must be a positive number of milliseconds, not '${text}'`,
    );
  }
  return ms;
}

/** The human summary: items per terminal, retries, salvages, failures with their errors, time. */
function formatSummary(result: RunResult, policyFrom: string | undefined, virtualTime = false): string[] {
  const lines = [`run ${result.runId}: ${result.status} — ${result.dag} (${result.hash.slice(0, 12)})`];
  if (policyFrom !== undefined) lines.push(`policy: ${policyFrom}`);
  for (const [terminal, count] of Object.entries(result.stats.byTerminal).sort()) {
    const outcome = result.items.find((i) => i.terminal === terminal)?.outcome ?? '';
    lines.push(`  ${terminal} (${outcome}): ${plural(count, 'item')}`);
  }
  const { retries, salvages, exhausted, executions, durationMs } = result.stats;
  lines.push(
    `${plural(executions, 'execution')}, ${plural(retries, 'retry').replace('retrys', 'retries')}, ${plural(salvages, 'salvage')}, ${exhausted} exhausted`,
  );
  for (const f of result.failures)
    lines.push(`  failed: item ${f.id} at '${f.placement}': ${f.error.code} ${f.error.message}`);
  for (const a of result.aborted)
    lines.push(`  aborted: item ${a.item} at '${a.placement}' (waiting for ${a.waitingFor})`);
  for (const p of result.phaseErrors)
    lines.push(`  phase '${p.placement}' failed: ${p.error.code} ${p.error.message}`);
  lines.push(`time: ${formatDuration(durationMs)}${virtualTime ? ' (virtual clock)' : ''}`);
  return lines;
}

/**
 * `switchyard run <dag> --nodes <module>`: validates the document, runs it over the input and prints a summary.
 * The node module exports `nodes` (or a default export): an array of `defineNode(...)` results. Without
 * `--policy`, `<dag-stem>.policy.json` beside the document is used when it exists. Exit 0 when the run
 * completed, 1 when any item failed or was aborted, or the document or input is wrong.
 *
 * `--virtual-time` is for nodes that do no real I/O: the virtual clock jumps ahead whenever the event loop
 * would otherwise sit idle, so a node awaiting a socket, a file or a timer of its own sees its deadline
 * (and the run's) fire at once.
 * @example
 * switchyard run dags/compose-validate.jsonld --nodes nodes/demo.ts --input '{"topic":"whales"}' --events run.jsonl
 */
export function registerRun(program: Command, io: CliIO, setExit: SetExit): void {
  program
    .command('run')
    .description('run a DAG document over input items with a module of node implementations')
    .argument('<dag>', 'the DAG document (.jsonld)')
    .requiredOption('--nodes <module>', 'a .ts or .js module exporting `nodes`: an array of node definitions')
    .option(
      '--input <json>',
      'the input: JSON (an object, or an array of objects for several items) or @file.json (default: {})',
    )
    .option(
      '--policy <file>',
      'a runtime policy file (default: <dag-stem>.policy.json beside the DAG, if any)',
    )
    .option('--events <file>', 'write every event as one JSON line')
    .option('--deadline <ms>', 'the run deadline in milliseconds')
    .option(
      '--virtual-time',
      'for nodes that do no real I/O: run on a virtual clock, so back-offs and deadlines take no real time ' +
        '(a node awaiting real I/O sees its deadline fire at once)',
    )
    .option('--seed <n>', 'seed the back-off jitter, so the same run waits the same delays')
    .option('--json', 'print the result as JSON')
    .action(async (dagPath: string, options: RunCommandOptions) => {
      const nodes = await loadNodeModule(options.nodes, io.cwd);
      const { file, dag, library } = await loadValidDag(dagPath, io.cwd, nodes);
      const items = await readInput(options.input, io.cwd);
      const deadlineMs = parseDeadline(options.deadline);
      const seed = parseSeed(options.seed);
      const { policy, from } = await policyFor(file, options.policy, io.cwd);
      const dispatcher = createDispatcher({
        nodes,
        library,
        ...(policy === undefined ? {} : { policy }),
        ...(options.virtualTime ? { clock: createVirtualClock({ auto: true }) } : {}),
        ...(seed === undefined ? {} : { random: seededRandom(seed) }),
      });
      // Opened only once everything else checked out, so a wrong document or input leaves no empty file.
      const events = options.events === undefined ? undefined : await openEvents(options.events, io.cwd);
      // Ctrl-C aborts the run instead of killing the process: post phases still run and the summary says
      // where each item stopped.
      const interrupt = new AbortController();
      const onSigint = () => interrupt.abort(new SwitchyardError('E_ABORTED', 'interrupted by the user'));
      process.once('SIGINT', onSigint);
      let result: RunResult;
      try {
        result = await dispatcher.run(
          dag,
          {},
          {
            items,
            signal: interrupt.signal,
            ...(deadlineMs === undefined ? {} : { deadlineMs }),
            ...(events === undefined ? {} : { onEvent: events.write }),
          },
        );
      } finally {
        process.off('SIGINT', onSigint);
        await events?.close();
      }
      if (options.json) {
        const { items: ended, failures, aborted, ...rest } = result;
        io.out(
          JSON.stringify(
            {
              ...rest,
              policy: from ?? null,
              items: ended.map(({ state, ...item }) => ({ ...item, budgets: state.budgets })),
              failures: failures.map(({ state, ...failure }) => ({ ...failure, data: state.data })),
              aborted: aborted.map(({ state, ...entry }) => entry),
            },
            null,
            2,
          ),
        );
      } else {
        for (const line of formatSummary(result, from, options.virtualTime === true)) io.out(line);
      }
      setExit(result.status === 'completed' ? 0 : 1);
    });
}
