/**
 * The package as its users get it: `npm pack` (which builds it), the tarball installed into an empty project
 * that has neither tsx nor TypeScript, and there the command line on a document whose nodes are plain
 * JavaScript, the API from an ES module, and the shipped types, checked by the repository's own tsc.
 *
 * The install is real: its dependencies come from the npm cache or registry (`--prefer-offline`), and
 * better-sqlite3 compiles its addon from source (about a minute on two cores) instead of trying to download
 * a prebuilt one, since nothing but the npm registry may be reached.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exec, type Packed, pack, ROOT, readmeBlocks } from './packed.ts';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

/** `npx --no <bin> …` in the project: only the installed bin, never a download. */
const npx = (args: readonly string[]) => exec('npx', ['--no', ...args], project);

let temp: string;
let project: string;
let packed: Packed;

let tarball: string;

beforeAll(async () => {
  temp = await mkdtemp(join(tmpdir(), 'switchyard-package-'));
  ({ packed, tarball } = await pack(temp));

  project = join(temp, 'project');
  await mkdir(project);
  await cp(FIXTURES, project, { recursive: true });
  const manifest = { name: 'packed-install-check', version: '1.0.0', private: true, type: 'module' };
  await writeFile(join(project, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  // @types/node is what a TypeScript project on Node installs beside the package; it is not TypeScript.
  const install = await exec(
    'npm',
    ['install', tarball, '@types/node@^20', '--no-audit', '--no-fund', '--prefer-offline'],
    project,
    { npm_config_build_from_source: 'true' },
  );
  expect(install.code, install.err).toBe(0);
}, 600_000);

afterAll(async () => {
  if (temp !== undefined) await rm(temp, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('holds the compiled code, its types and files, and no sources, tests, benches or images', () => {
    const paths = packed.files.map((file) => file.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'package.json',
        'bin/switchyard.js',
        'bin/archivist.js',
        'dist/src/index.js',
        'dist/src/index.d.ts',
        'dist/src/cli/main.js',
        'dist/schemas/dag.schema.json',
        'dist/schemas/context.v1.jsonld',
        'dist/dags/archivist/ask.jsonld',
        'dist/examples/archivist/main.js',
        'dist/examples/archivist/catalog.json',
        'dist/programs/switchyard.js',
        'dist/programs/archivist.js',
      ]),
    );
    const outside = paths.filter(
      (path) =>
        !path.startsWith('dist/') &&
        !path.startsWith('bin/') &&
        !/^(?:package\.json|README\.md|LICENSE)$/u.test(path),
    );
    expect(outside).toEqual([]);
    expect(paths.filter((path) => /(?:^|\/)(?:test|tests|bench|fixtures)\//u.test(path))).toEqual([]);
    expect(paths.filter((path) => /\.(?:png|jpe?g|gif|svg|webp)$/u.test(path))).toEqual([]);
    expect(paths.filter((path) => /\.test\.|\.bench\./u.test(path))).toEqual([]);
    expect(paths.filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))).toEqual([]);
    expect(paths).not.toContain('bin/dev/switchyard.js');
  });

  it('installs without tsx, TypeScript or the optional peers', () => {
    const modules = join(project, 'node_modules');
    expect(existsSync(join(modules, 'switchyard/dist/src/index.js'))).toBe(true);
    for (const absent of [
      'tsx',
      'typescript',
      'esbuild',
      '@mermaid-js/mermaid-cli',
      'puppeteer',
      'openai',
      'ollama',
    ]) {
      expect(existsSync(join(modules, absent)), absent).toBe(false);
    }
  });

  it('npx switchyard validate checks a document', async () => {
    const result = await npx(['switchyard', 'validate', 'greet.jsonld']);
    expect(result.err).toBe('');
    expect(result.out).toBe('1 document checked: all valid, 0 errors, 0 warnings\n');
    expect(result.code).toBe(0);
  });

  it('npx switchyard run runs it with node implementations in plain JavaScript', async () => {
    const result = await npx([
      'switchyard',
      'run',
      'greet.jsonld',
      '--nodes',
      'nodes.js',
      '--input',
      '{"name":"reader"}',
      '--json',
    ]);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    const run = JSON.parse(result.out) as { status: string; items: { terminal: string; data: unknown }[] };
    expect(run.status).toBe('completed');
    expect(run.items).toHaveLength(1);
    expect(run.items[0]).toMatchObject({ terminal: 'done', data: { greeting: 'Hello, reader (draft 2)' } });
    // Recorded in the default SQLite store: better-sqlite3's addon works in the installed package.
    expect(existsSync(join(project, '.switchyard/runs.db'))).toBe(true);
  });

  it('an ES module imports createDispatcher from switchyard and runs a DAG', async () => {
    const result = await exec(process.execPath, ['api.js'], project);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    const run = JSON.parse(result.out) as { status: string; items: { terminal: string; data: unknown }[] };
    expect(run.status).toBe('completed');
    expect(run.items[0]).toMatchObject({ terminal: 'done', data: { greeting: 'Hello, reader (draft 2)' } });
  });

  it('require() loads the same package from CommonJS', async () => {
    const script = [
      "const switchyard = require('switchyard');",
      "import('switchyard').then((imported) => console.log(typeof switchyard.createDispatcher, switchyard.createDispatcher === imported.createDispatcher));",
    ].join('\n');
    await writeFile(join(project, 'required.cjs'), script);
    const result = await exec(process.execPath, ['required.cjs'], project);
    expect(result.err).toBe('');
    expect(result.out).toBe('function true\n');
  });

  it('exports the JSON Schemas as switchyard/schemas/*', async () => {
    const script = [
      "import dag from 'switchyard/schemas/dag.schema.json' with { type: 'json' };",
      "import policy from 'switchyard/schemas/policy.schema.json' with { type: 'json' };",
      'console.log(dag.title, "/", policy.title);',
    ].join('\n');
    const result = await exec(process.execPath, ['--input-type=module', '-e', script], project);
    expect(result.err).toBe('');
    expect(result.out).toMatch(/^Switchyard DAG document \/ \S/u);
  });

  it('a TypeScript file using the API type-checks against the shipped .d.ts', async () => {
    const files = await exec(process.execPath, [TSC, '-p', '.', '--listFilesOnly'], project);
    expect(files.out).toContain(join(project, 'node_modules/switchyard/dist/src/index.d.ts'));
    const check = await exec(process.execPath, [TSC, '-p', '.'], project);
    expect(check.out + check.err).toBe('');
    expect(check.code).toBe(0);
  });

  it('npx switchyard render writes Mermaid text without the rendering packages', async () => {
    const result = await npx(['switchyard', 'render', 'greet.jsonld', '-o', 'greet.mmd']);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(await readFile(join(project, 'greet.mmd'), 'utf8')).toContain('flowchart');
  });

  it('npx archivist answers a question offline', async () => {
    const result = await npx(['archivist', 'ask', 'recommend something like Dune']);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^You could try "[^"]+" by [^\n]+\(\d{4}/u);
  });

  it('a command that needs a missing optional package says in one line what to install', async () => {
    await cp(join(project, 'nodes.js'), join(project, 'nodes.ts'));
    const cases: [readonly string[], string][] = [
      [['switchyard', 'render', 'greet.jsonld', '-o', 'greet.svg'], 'npm install @mermaid-js/mermaid-cli'],
      [['switchyard', 'run', 'greet.jsonld', '--nodes', 'nodes.ts'], 'npm install tsx'],
      [['archivist', 'ask', '--llm', 'openai', 'books by George Orwell'], 'npm install openai'],
      [['archivist', 'ask', '--llm', 'ollama', 'books by George Orwell'], 'npm install ollama'],
    ];
    for (const [args, install] of cases) {
      const result = await npx(args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.out, args.join(' ')).toBe('');
      expect(result.err.trimEnd().split('\n'), args.join(' ')).toHaveLength(1);
      expect(result.err, args.join(' ')).toContain(install);
      expect(result.err, args.join(' ')).toContain('E_MISSING_PACKAGE');
    }
    expect(existsSync(join(project, 'greet.svg'))).toBe(false);
  });

  // Last, since it installs tsx: the README's nodes.ts in a "type": "commonjs" folder, as `npm init` makes.
  it('with tsx added, runs the README\'s TypeScript nodes from a "type": "commonjs" folder and records the run', async () => {
    const install = await exec(
      'npm',
      ['install', 'tsx', '--no-audit', '--no-fund', '--prefer-offline'],
      project,
    );
    expect(install.code, install.err).toBe(0);
    const nodes = (await readmeBlocks('A first project')).find((block) => block.lang === 'ts');
    const folder = join(project, 'commonjs');
    await mkdir(folder);
    await writeFile(join(folder, 'package.json'), '{ "name": "commonjs", "type": "commonjs" }\n');
    await writeFile(join(folder, 'nodes.ts'), nodes?.text ?? '');
    const result = await npx([
      'switchyard',
      'run',
      'greet.jsonld',
      '--nodes',
      'commonjs/nodes.ts',
      '--input',
      '{"name":"reader"}',
    ]);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toMatch(
      /^run \S+: completed — urn:example:dag:greet \(\w+\)\nrecorded in \.switchyard\/runs\.db as /u,
    );
    expect(result.out).toContain('4 executions, 1 retry, 0 salvages, 0 exhausted');
  });
});
