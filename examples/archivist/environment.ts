import { systemClock } from '../../src/policy/clock.ts';
import type { Clock, PolicyInput, RuntimePolicy } from '../../src/policy/types.ts';

/** Everything the program touches outside itself; injected so tests can drive it. */
export interface ArchivistEnv {
  /** Writes to standard output (a newline is added when missing). */
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** Environment variables (API keys, OLLAMA_HOST, …). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly clock: Clock;
  /** Whether standard output is a terminal: the spinner shows only then. */
  readonly isTTY: boolean;
  readonly cwd: string;
  /** The streams `archivist chat` reads and prompts on. */
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream;
  /** The stream the spinner draws on. */
  readonly progress: NodeJS.WriteStream;
  /** Replaces the policy files beside the DAGs (tests on a virtual clock). */
  readonly policy?: PolicyInput | RuntimePolicy;
}

/** The environment of the running process. */
export function processEnv(): ArchivistEnv {
  return {
    out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
    err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
    env: process.env,
    clock: systemClock,
    isTTY: Boolean(process.stdout.isTTY),
    cwd: process.cwd(),
    stdin: process.stdin,
    stdout: process.stdout,
    progress: process.stderr,
  };
}
