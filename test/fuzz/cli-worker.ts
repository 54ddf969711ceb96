/**
 * The case runner's side of the CLI worker: one worker thread, started on first use and reused, that runs
 * commands one at a time. A command that has not answered within its limit is reported as hung and the
 * worker is terminated (which stops even a loop that never yields) and replaced for the next command.
 */
import { Worker } from 'node:worker_threads';
import type { WorkerReply, WorkerRequest } from './cli-worker-main.ts';

const ENTRY = new URL('./cli-worker.mjs', import.meta.url);

let worker: Worker | undefined;
let nextId = 0;

/** The answer of a command, or `hung` when it did not answer within the limit (or the worker died). */
export type CommandOutcome =
  | { readonly kind: 'done'; readonly reply: WorkerReply }
  | { readonly kind: 'hung'; readonly why: string };

let ready: Promise<boolean> | undefined;

/** The worker, started and loaded; false when it could not start. */
async function current(): Promise<Worker | undefined> {
  if (worker === undefined) {
    // 2 GiB of heap: a runaway command dies of it instead of taking the machine's memory. The stack is the
    // main thread's (984 KiB by default) rather than a worker's 4 MiB, so deep input overflows where the
    // real program would.
    const w = new Worker(ENTRY, { resourceLimits: { maxOldGenerationSizeMb: 2048, stackSizeMb: 0.984 } });
    w.unref();
    worker = w;
    ready = new Promise((resolve) => {
      w.once('message', (m) => resolve(m === 'ready'));
      w.once('error', () => resolve(false));
      w.once('exit', () => resolve(false));
    });
  }
  const w = worker;
  return (await ready) ? w : undefined;
}

/** Runs `switchyard <args>` in the worker with `cwd` as its working folder. */
export async function runInWorker(
  args: readonly string[],
  cwd: string,
  limitMs: number,
): Promise<CommandOutcome> {
  const w = await current();
  if (w === undefined) {
    worker = undefined;
    return { kind: 'hung', why: 'the CLI worker did not start' };
  }
  const id = nextId++;
  return new Promise((resolve) => {
    const finish = (outcome: CommandOutcome) => {
      clearTimeout(timer);
      w.off('message', onMessage);
      w.off('error', onError);
      w.off('exit', onExit);
      resolve(outcome);
    };
    const retire = () => {
      if (worker === w) worker = undefined;
      void w.terminate();
    };
    const onMessage = (reply: WorkerReply) => {
      if (reply.id === id) finish({ kind: 'done', reply });
    };
    const onError = (error: Error) => {
      retire();
      finish({ kind: 'hung', why: `the worker died: ${error.message.split('\n')[0]}` });
    };
    const onExit = (code: number) => {
      retire();
      finish({ kind: 'hung', why: `the worker exited with ${code}` });
    };
    const timer = setTimeout(() => {
      retire();
      finish({ kind: 'hung', why: `no answer within ${limitMs} ms; stopped` });
    }, limitMs);
    w.on('message', onMessage);
    w.on('error', onError);
    w.on('exit', onExit);
    w.postMessage({ id, args, cwd } satisfies WorkerRequest);
  });
}
