#!/usr/bin/env node
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../examples/archivist/main.ts');
process.exitCode = await main(process.argv);
