import type { Command } from 'commander';
import type { CliIO } from '../io.ts';

/** Sets the process exit code a command ends with (the highest one set wins). */
export type SetExit = (code: number) => void;

/** Adds every subcommand to the program. Each command lives in its own file and exports `register`. */
export function registerCommands(program: Command, io: CliIO, setExit: SetExit): void {
  void program;
  void io;
  void setExit;
}
