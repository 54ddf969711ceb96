#!/usr/bin/env node
// `switchyard` from its TypeScript sources, for development and the tests: tsx compiles them as they load,
// so an edit shows at once without `npm run build`.
import { register } from 'tsx/esm/api';
import { runCli } from '../run-cli.js';

register();
await runCli('../src/cli/main.ts');
