#!/usr/bin/env node
import { runCli } from './run-cli.js';

await runCli('../examples/archivist/main.ts');
