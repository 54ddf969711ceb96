// Starts the fuzz CLI worker: tsx is registered first, so the worker runs the TypeScript sources and can
// import the nodes modules the cases write, as bin/dev/switchyard.js does.
import { register } from 'tsx/esm/api';

register();
await import('./cli-worker-main.ts');
