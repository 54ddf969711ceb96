#!/usr/bin/env node
import { runCli } from './run-cli.js';

await runCli('../src/cli/main.ts');
