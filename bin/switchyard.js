#!/usr/bin/env node
// Registers tsx from this package (not the caller's folder) so the CLI runs from its TypeScript sources
// and can load node modules written in TypeScript.
import { register } from 'tsx/esm/api';

register();
// A closed pipe (`switchyard … | head`) ends the output quietly, as for any Unix tool.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv);
