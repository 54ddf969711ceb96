#!/usr/bin/env node
import { runCli } from './run-cli.js';

await runCli('../dist/examples/archivist/main.js');
