#!/usr/bin/env node
import { runCli } from './run-cli.js';

await runCli('../dist/programs/switchyard.js');
