// Shared start of the command-line programs: runs a program's compiled `main(argv)` and sets the exit code,
// and a closed pipe (`switchyard … | head`) ends the output quietly, as for any Unix tool.
import { existsSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Runs the `main(argv)` exported by `entry` (a path relative to this folder) and sets the exit code. */
export async function runCli(entry) {
  process.stdout.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  const url = new URL(entry, import.meta.url);
  // A clone that was never built (or whose build was removed) has no compiled program to run.
  if (!existsSync(fileURLToPath(url))) {
    const name = basename(process.argv[1] ?? 'switchyard', '.js');
    process.stderr.write(
      `${name}: the compiled program ${fileURLToPath(url)} is missing — run \`npm run build\` in ${dirname(fileURLToPath(new URL('.', import.meta.url)))}\n`,
    );
    process.exitCode = 1;
    return;
  }
  const { main } = await import(url.href);
  process.exitCode = await main(process.argv);
}
