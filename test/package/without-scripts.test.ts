/**
 * The package installed without install scripts (`npm install --ignore-scripts`, as pnpm does by default),
 * by a newcomer following the README's "A first project" word for word: `npm init -y` (a package.json with
 * "type": "commonjs"), the tarball and tsx installed, the README's document and TypeScript nodes written
 * out, its commands run. better-sqlite3 then has no compiled addon: what records runs answers in one line
 * with the fix and the way around it, and the rest works. TypeScript nodes load from folders of every kind,
 * and `require('switchyard')` loads the package.
 *
 * Packed once; the install takes seconds, as nothing is compiled.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Block, commandsOf, exec, lines, pack, readmeBlocks } from './packed.ts';

const README_TARBALL = '/path/to/switchyard-0.1.0.tgz';

let temp: string;
let project: string;
let blocks: Block[];

/** Runs a command line of the README in the project, as a shell would, with npx never downloading. */
function shell(command: string, folder = project) {
  return exec('sh', ['-c', command.replace(/^npx /u, 'npx --no ')], folder);
}

/** `switchyard …` or `archivist …` as installed in the project (what npx runs, without npx's start). */
const installed = ([program, ...args]: readonly string[]) =>
  exec(process.execPath, [join(project, 'node_modules/switchyard/bin', `${program}.js`), ...args], project);

/** The README's block of a language, the `n`-th of them. */
function block(lang: string, n = 0): Block {
  const found = blocks.filter((b) => b.lang === lang)[n];
  expect(found, `README "A first project" block ${lang} #${n}`).toBeDefined();
  return found as Block;
}

beforeAll(async () => {
  temp = await mkdtemp(join(tmpdir(), 'switchyard-no-scripts-'));
  const { tarball } = await pack(temp);
  blocks = await readmeBlocks('A first project');
  project = join(temp, 'first-project');
  await mkdir(project);
  for (const command of commandsOf(block('sh', 0))) {
    const install = command.startsWith('npm install');
    const line = install
      ? `${command.replace(README_TARBALL, tarball)} --ignore-scripts --no-audit --no-fund --prefer-offline`
      : command;
    const result = await shell(line);
    expect(result.code, `${line}\n${result.err}`).toBe(0);
  }
  await writeFile(join(project, 'greet.jsonld'), block('json').text);
  await writeFile(join(project, 'nodes.ts'), block('ts').text);
}, 300_000);

afterAll(async () => {
  if (temp !== undefined) await rm(temp, { recursive: true, force: true });
});

describe("the README's first project, installed without scripts", () => {
  it('is an npm init project ("type": "commonjs") with tsx, and better-sqlite3 without its addon', async () => {
    const manifest = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as { type?: string };
    expect(manifest.type).toBe('commonjs');
    const modules = join(project, 'node_modules');
    expect(existsSync(join(modules, 'tsx/package.json'))).toBe(true);
    expect(existsSync(join(modules, 'better-sqlite3/package.json'))).toBe(true);
    expect(existsSync(join(modules, 'better-sqlite3/build/Release/better_sqlite3.node'))).toBe(false);
  });

  it('validates the document as written', async () => {
    const [validate] = commandsOf(block('sh', 1));
    const result = await shell(validate as string);
    expect(result.err).toBe('');
    expect(result.out).toBe(`${lines(block('', 0).text)[0]}\n`);
    expect(result.code).toBe(0);
  });

  it('refuses the run in one line saying to rebuild better-sqlite3 or pass --no-store, and runs it with --no-store', async () => {
    const [, run] = commandsOf(block('sh', 1));
    const refused = await shell(run as string);
    expect(refused.code).toBe(1);
    expect(refused.out).toBe('');
    expect(lines(refused.err)).toEqual([
      'switchyard: the run store (an SQLite file) needs the compiled addon of better-sqlite3, which is missing (it was installed without running its install script): run `npm rebuild better-sqlite3`, or pass --no-store to record nothing (E_MISSING_PACKAGE)',
    ]);
    expect(existsSync(join(project, '.switchyard/runs.db'))).toBe(false);
    const result = await shell(`${run} --no-store`);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    const expected = lines(block('', 0).text);
    const said = lines(result.out);
    expect(said[0]).toMatch(/^run \S+: completed — urn:example:dag:greet \(\w+\)$/u);
    // What the README shows after its `recorded in` line, which --no-store leaves out.
    expect(said.slice(1, 3)).toEqual(expected.slice(3, 5));
  });

  it('answers archivist ask in one line too, and answers it with --no-store', async () => {
    const refused = await installed(['archivist', 'ask', 'recommend something like Dune']);
    expect(refused.code).toBe(1);
    expect(lines(refused.err)).toHaveLength(1);
    expect(refused.err).toMatch(
      /^archivist: .*`npm rebuild better-sqlite3`, or pass --no-store .*\(E_MISSING_PACKAGE\)$/mu,
    );
    const answered = await installed(['archivist', 'ask', '--no-store', 'recommend something like Dune']);
    expect(answered.err).toBe('');
    expect(answered.code).toBe(0);
    expect(answered.out).toMatch(/^You could try "[^"]+" by /u);
  });
});

/** The README's nodes as a module that only an ES module can be: top-level await and import.meta. */
const ESM_ONLY = (readme: string) =>
  `${readme}\nconst here: string = await Promise.resolve(import.meta.url);\nif (!here.startsWith('file:')) throw new Error('no import.meta.url');\n`;

const COMMONJS_NODES = `const { defineNode } = require('switchyard');
const { basename } = require('node:path');
exports.nodes = [
  defineNode({ id: 'urn:example:node:draft', outputs: ['drafted'], run: (item) => { item.data.greeting = basename(__filename); return 'drafted'; } }),
  defineNode({ id: 'urn:example:node:check', outputs: ['ok', 'again'], run: () => 'ok' }),
];
`;

describe('node modules, wherever they live', () => {
  /** Runs greet.jsonld with `nodes` and returns the greeting the run ended with. */
  async function greeting(nodes: string): Promise<unknown> {
    const result = await installed([
      'switchyard',
      'run',
      'greet.jsonld',
      '--nodes',
      nodes,
      '--no-store',
      '--json',
      '--input',
      '{"name":"reader"}',
    ]);
    expect(result.err, nodes).toBe('');
    expect(result.code, nodes).toBe(0);
    const run = JSON.parse(result.out) as { status: string; items: { data: { greeting?: unknown } }[] };
    expect(run.status, nodes).toBe('completed');
    return run.items[0]?.data.greeting;
  }

  it('loads one written as an ES module from a folder with no package.json, one without "type", a "type": "commonjs" one and a "type": "module" one', async () => {
    const readme = block('ts').text;
    // Outside any package: no package.json in the folder or above it, its packages found through node_modules.
    const bare = join(temp, 'bare');
    await mkdir(bare);
    await symlink(join(project, 'node_modules'), join(bare, 'node_modules'));
    const folders: [string, string | undefined][] = [
      [bare, undefined],
      [join(project, 'untyped'), '{ "name": "untyped" }'],
      [join(project, 'commonjs'), '{ "name": "commonjs", "type": "commonjs" }'],
      [join(project, 'module'), '{ "name": "module", "type": "module" }'],
    ];
    for (const [folder, manifest] of folders) {
      await mkdir(folder, { recursive: true });
      if (manifest !== undefined) await writeFile(join(folder, 'package.json'), manifest);
      await writeFile(join(folder, 'nodes.ts'), ESM_ONLY(readme));
      expect(await greeting(join(folder, 'nodes.ts'))).toBe('Hello, reader (draft 2)');
    }
  });

  it('loads the same nodes in JavaScript as an ES module from the "type": "commonjs" project, with no warning', async () => {
    // The README's nodes carry no type annotations: as nodes.js they are what a newcomer writes in JavaScript.
    await writeFile(join(project, 'nodes.js'), block('ts').text);
    expect(await greeting('nodes.js')).toBe('Hello, reader (draft 2)');
  });

  it('loads one that uses CommonJS (require, exports, __filename) as CommonJS', async () => {
    await writeFile(join(project, 'commonjs-nodes.ts'), COMMONJS_NODES);
    expect(await greeting('commonjs-nodes.ts')).toBe('commonjs-nodes.ts');
  });

  it('names an import that fails, the file that makes it and why, in one line', async () => {
    await writeFile(join(project, 'helper.ts'), "const pad = require('left-pad');\nexports.pad = pad;\n");
    const cases: [string, string][] = [
      [
        "import leftPad from 'left-pad';\nexport const nodes = [leftPad];\n",
        "switchyard: missing.ts: import 'left-pad' failed: the package left-pad is not installed — install it in the node module's project: `npm install left-pad` (node module missing.ts) (E_NODE_MODULE)",
      ],
      [
        "import { nothing } from 'switchyard';\nexport const nodes = [nothing];\n",
        "switchyard: missing.ts:1:10: import 'switchyard' failed: it has no export named 'nothing' — import a name it exports (check the spelling, and whether it is a default export) (node module missing.ts) (E_NODE_MODULE)",
      ],
      [
        // An ES module importing a CommonJS one that fails: reported once, by the import, with no stack.
        "import { pad } from './helper.ts';\nexport const nodes = [pad];\n",
        "switchyard: helper.ts: import 'left-pad' failed: the package left-pad is not installed — install it in the node module's project: `npm install left-pad` (node module missing.ts) (E_NODE_MODULE)",
      ],
    ];
    for (const [source, line] of cases) {
      await writeFile(join(project, 'missing.ts'), source);
      const result = await installed([
        'switchyard',
        'run',
        'greet.jsonld',
        '--nodes',
        'missing.ts',
        '--no-store',
      ]);
      expect(result.code, source).toBe(1);
      expect(lines(result.err), source).toEqual([line]);
    }
  });
});

describe('require', () => {
  it("require('switchyard') loads the package from CommonJS", async () => {
    const script =
      "const { createDispatcher, defineNode } = require('switchyard');\nconsole.log(typeof createDispatcher, typeof defineNode);\n";
    await writeFile(join(project, 'required.js'), script);
    const result = await exec(process.execPath, ['required.js'], project);
    expect(result.err).toBe('');
    expect(result.out).toBe('function function\n');
  });

  it('on a Node that cannot require an ES module, says so in one line with the import() to use', async () => {
    const result = await exec(process.execPath, ['--no-experimental-require-module', 'required.js'], project);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(
      /^Error: switchyard is an ES module, which this Node \(v[\d.]+\) cannot require\(\): load it with `const \{ createDispatcher \} = await import\('switchyard'\)`, or use Node 20\.19 or later$/mu,
    );
  });
});
