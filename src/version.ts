import pkg from '../package.json' with { type: 'json' };

/** The package version both programs print for `--version` and durable runs record. */
export const VERSION: string = pkg.version;
