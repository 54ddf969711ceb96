import type { Command } from 'commander';
import type { CliIO } from '../io.ts';
import { registerAnswer } from './answer.ts';
import { registerExport } from './export.ts';
import { registerHash } from './hash.ts';
import { registerInspect } from './inspect.ts';
import { registerRender } from './render.ts';
import { registerResume } from './resume.ts';
import { registerRun } from './run.ts';
import { registerRuns } from './runs.ts';
import { registerUi } from './ui.ts';
import { registerValidate } from './validate.ts';
import { registerWorker } from './worker.ts';

/** Sets the process exit code a command ends with (the highest one set wins). */
export type SetExit = (code: number) => void;

/** Adds every subcommand to the program. Each command lives in its own file. */
export function registerCommands(program: Command, io: CliIO, setExit: SetExit): void {
  registerValidate(program, io, setExit);
  registerInspect(program, io);
  registerHash(program, io);
  registerExport(program, io);
  registerRun(program, io, setExit);
  registerResume(program, io, setExit);
  registerAnswer(program, io, setExit);
  registerRender(program, io, setExit);
  registerRuns(program, io);
  registerUi(program, io);
  registerWorker(program, io);
}
