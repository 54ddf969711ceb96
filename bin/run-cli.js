// Shared start of the command-line programs: tsx is registered from this package (not the caller's folder)
// so the programs run from their TypeScript sources and can load node modules written in TypeScript, and a
// closed pipe (`switchyard … | head`) ends the output quietly, as for any Unix tool.
import { register } from 'tsx/esm/api';

/** Runs the `main(argv)` exported by `entry` (a path relative to this folder) and sets the exit code. */
export async function runCli(entry) {
  register();
  process.stdout.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  const { main } = await import(new URL(entry, import.meta.url).href);
  process.exitCode = await main(process.argv);
}
