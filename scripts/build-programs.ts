/**
 * Build step (see scripts/build.ts): bundles the compiled modules of the two command-line programs,
 * `switchyard` (dist/src/cli/main.js) and `archivist` (dist/examples/archivist/main.js), into
 * `<out>/programs/`, which `bin/` runs. A program's start is mostly Node loading its modules, some 200 of
 * them one by one; a bundle loads a few files. Dependencies stay outside the bundle (imported from
 * node_modules as before), and modules imported only when needed (rendering, the web viewer, model
 * clients) stay separate chunks, loaded when a command needs them. The library (`import 'switchyard'`)
 * keeps using the unbundled modules.
 *
 * A compiled module finds its files (schemas, DAG documents, the catalog, the viewer's page) relative to
 * its own `import.meta.url`; in a bundle that would be the bundle's, so each module's `import.meta.url` is
 * rewritten to the URL its unbundled file has beside the bundle, and every path resolves as before.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { build, type Plugin } from 'esbuild';

const out = resolve(process.argv[2] ?? 'dist');
const programs = join(out, 'programs');

/** Rewrites `import.meta.url` in the modules of `out` to the URL of their unbundled file. */
const originalUrls: Plugin = {
  name: 'original-urls',
  setup(bundler) {
    bundler.onLoad({ filter: /\.js$/ }, async (args) => {
      if (!args.path.startsWith(`${out}${sep}`)) return undefined;
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return { contents: text, loader: 'js' };
      const path = relative(programs, args.path).split(sep).join('/');
      const url = `new URL(${JSON.stringify(path)}, import.meta.url).href`;
      return {
        contents: text.replaceAll('import.meta.url', url),
        loader: 'js',
        resolveDir: dirname(args.path),
      };
    });
  },
};

const result = await build({
  entryPoints: {
    switchyard: join(out, 'src/cli/main.js'),
    archivist: join(out, 'examples/archivist/main.js'),
  },
  outdir: programs,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  plugins: [originalUrls],
  logLevel: 'warning',
  legalComments: 'none',
});
if (result.errors.length > 0) process.exitCode = 1;
