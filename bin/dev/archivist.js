#!/usr/bin/env node
// `archivist` from its TypeScript sources, for development and the tests: tsx compiles them as they load,
// so an edit shows at once without `npm run build`.
import { register } from 'tsx/esm/api';
import { runCli } from '../run-cli.js';

register();
await runCli('../examples/archivist/main.ts');
