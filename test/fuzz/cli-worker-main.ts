/**
 * The worker thread fuzz cases run the command line in: it answers each message by running `main` with
 * captured output and says which built-in prototypes the command changed (and puts them back). Running in a
 * worker lets the case runner stop a command that never yields, which no timer in the same thread could.
 */
import { parentPort } from 'node:worker_threads';
import { main } from '../../src/cli/main.ts';
import { prototypeChanges, snapshotPrototypes } from './prototypes.ts';

/** One command to run: its arguments after `switchyard`, and the working folder. */
export interface WorkerRequest {
  readonly id: number;
  readonly args: readonly string[];
  readonly cwd: string;
}

/** What a command did, and what it changed on the prototypes. */
export interface WorkerReply {
  readonly id: number;
  readonly code: number;
  readonly out: string;
  readonly err: string;
  readonly thrown?: string;
  readonly pollution: readonly string[];
}

async function answer(request: WorkerRequest): Promise<WorkerReply> {
  let out = '';
  let err = '';
  const line = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);
  const before = snapshotPrototypes();
  const io = {
    out: (text: string) => {
      out += line(text);
    },
    err: (text: string) => {
      err += line(text);
    },
    cwd: request.cwd,
    isTTY: false,
  };
  try {
    const code = await main(['node', 'switchyard', ...request.args], io);
    return { id: request.id, code, out, err, pollution: prototypeChanges(before) };
  } catch (error) {
    const thrown = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const first = thrown.split('\n')[0]?.slice(0, 300) ?? '';
    return { id: request.id, code: -1, out, err, thrown: first, pollution: prototypeChanges(before) };
  }
}

parentPort?.on('message', (request: WorkerRequest) => {
  void answer(request).then((reply) => parentPort?.postMessage(reply));
});
// Loaded and listening: the case runner starts its clock for a command only after this.
parentPort?.postMessage('ready');
