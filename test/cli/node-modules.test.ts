/**
 * Loading node modules written in TypeScript: as ES modules wherever they live when written as ones, as
 * CommonJS when they use it; an import they cannot make named in one line; and many times in one process,
 * as a harness that calls `main` again and again does: tsx is registered once, so its hooks do not pile up
 * until a later `require` overflows the stack (run in a child process with the main thread's default stack,
 * 984 KiB).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isModuleSource } from '../../src/cli/module-format-hook.mjs';
import { loadNodeModule } from '../../src/cli/node-modules.ts';
import { SWITCHYARD } from '../cli-entry.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const SCRIPT = `
import { loadNodeModule } from './src/cli/node-modules.ts';
const loads = Number(process.env.LOADS);
for (let i = 0; i < loads; i++) await loadNodeModule('test/fixtures/nodes/compose-validate.ts');
// A package loaded only now goes through every hook registered so far.
const { default: jsonld } = await import('jsonld');
console.log(typeof jsonld.expand);
`;

describe('node modules in TypeScript', () => {
  it('can be loaded thousands of times in one process, and a package loaded after them still loads', () => {
    const child = spawnSync(
      process.execPath,
      ['--stack-size=984', '--import', 'tsx', '--input-type=module', '--eval', SCRIPT],
      { cwd: ROOT, env: { ...process.env, LOADS: '2000' }, encoding: 'utf8', timeout: 120_000 },
    );
    expect(child.stderr).not.toContain('Maximum call stack');
    expect(child.stdout.trim()).toBe('function');
    expect(child.status).toBe(0);
  }, 150_000);
});

const NODE_TS = pathToFileURL(join(ROOT, 'src/runtime/node.ts')).href;

/** Node modules of the README's greet document, written as an ES module only an ES module can be. */
const ESM_NODES = `import { defineNode } from '${NODE_TS}';
const here: string = await Promise.resolve(import.meta.url);
export const nodes = [
  defineNode({ id: 'urn:example:node:draft', outputs: ['drafted'], run: () => 'drafted' }),
  defineNode({ id: 'urn:example:node:check', outputs: ['ok'], run: () => (here.startsWith('file:') ? 'ok' : 'ok') }),
];
`;

/** The same nodes written as CommonJS, which keeps using what only CommonJS has. */
const COMMONJS_NODES = `const { basename } = require('node:path');
exports.nodes = [
  { id: 'urn:example:node:draft', outputs: [basename(__filename, '.ts')], run: () => 'drafted' },
];
`;

let outside: string;

beforeAll(async () => {
  // Below the system's temporary folder, outside any package: no package.json here or above.
  outside = await mkdtemp(join(tmpdir(), 'switchyard-node-modules-'));
  const folders: Record<string, string | undefined> = {
    bare: undefined,
    untyped: '{ "name": "untyped" }',
    commonjs: '{ "name": "commonjs", "type": "commonjs" }',
    module: '{ "name": "module", "type": "module" }',
  };
  for (const [folder, manifest] of Object.entries(folders)) {
    await mkdir(join(outside, folder));
    if (manifest !== undefined) await writeFile(join(outside, folder, 'package.json'), manifest);
  }
  // A package that exports only its main entry.
  const pkg = join(outside, 'commonjs/node_modules/narrow');
  await mkdir(pkg, { recursive: true });
  await writeFile(
    join(pkg, 'package.json'),
    '{ "name": "narrow", "type": "module", "exports": "./main.js" }',
  );
  await writeFile(join(pkg, 'main.js'), 'export const wide = 1;\n');
});

afterAll(async () => {
  await rm(outside, { recursive: true, force: true });
});

/** The message of the error `promise` rejects with. */
async function refusal(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => expect.unreachable('the module loaded'),
    (error: unknown) => `${(error as Error).message} (${(error as { code?: string }).code})`,
  );
}

describe('TypeScript node modules outside a "type": "module" package', () => {
  it('load as ES modules (top-level await, import.meta) with no package.json, one without "type", a "type": "commonjs" one and a "type": "module" one', async () => {
    for (const folder of ['bare', 'untyped', 'commonjs', 'module']) {
      const file = join(outside, folder, 'nodes.ts');
      await writeFile(file, ESM_NODES);
      const registry = await loadNodeModule(file);
      expect(registry.get('urn:example:node:check')?.outputs, folder).toEqual(['ok']);
    }
  });

  it('load as CommonJS when they use require, exports and __filename, outside a "type": "module" package', async () => {
    for (const folder of ['bare', 'commonjs']) {
      const file = join(outside, folder, 'cjs-nodes.ts');
      await writeFile(file, COMMONJS_NODES);
      const registry = await loadNodeModule(file);
      expect(registry.get('urn:example:node:draft')?.outputs, folder).toEqual(['cjs-nodes']);
    }
  });
});

describe('JavaScript node modules outside a "type": "module" package', () => {
  it('load as ES modules with their helpers, from a "type": "commonjs" folder and one without "type", with no warning', () => {
    for (const folder of ['commonjs', 'untyped']) {
      const dir = join(outside, folder);
      writeFileSync(
        join(dir, 'greet.jsonld'),
        readFileSync(join(ROOT, 'test/package/fixtures/greet.jsonld')),
      );
      writeFileSync(join(dir, 'word.js'), "export const word = 'from a helper';\n");
      writeFileSync(
        join(dir, 'nodes.js'),
        `import { word } from './word.js';
const said = await Promise.resolve(word);
export const nodes = [
  { id: 'urn:example:node:draft', outputs: ['drafted'], run: (item) => { item.data.greeting = said; return 'drafted'; } },
  { id: 'urn:example:node:check', outputs: ['ok', 'again'], run: () => 'ok' },
];
`,
      );
      // As a process of its own, where Node, not the test runner, loads the module.
      const child = spawnSync(
        process.execPath,
        [...SWITCHYARD, 'run', 'greet.jsonld', '--nodes', 'nodes.js', '--no-store', '--json'],
        { cwd: dir, encoding: 'utf8' },
      );
      expect(child.stderr, folder).toBe('');
      expect(child.status, folder).toBe(0);
      expect(JSON.parse(child.stdout).items[0].data.greeting, folder).toBe('from a helper');
    }
  });
});

describe('an import a node module cannot make', () => {
  const commonjs = () => join(outside, 'commonjs');

  it('names the import, the file that makes it, and why, in one line', async () => {
    const cases: [string, string][] = [
      [
        "import { pad } from 'left-pad';\nexport const nodes = [pad];\n",
        "imports.ts: import 'left-pad' failed: the package left-pad is not installed — install it in the node module's project: `npm install left-pad` (node module imports.ts) (E_NODE_MODULE)",
      ],
      [
        "import { helper } from './nowhere.ts';\nexport const nodes = [helper];\n",
        "imports.ts: import 'nowhere.ts' failed: no such file — check the path in the import (node module imports.ts) (E_NODE_MODULE)",
      ],
      [
        "import { deep } from 'narrow/deep';\nexport const nodes = [deep];\n",
        "imports.ts: import 'narrow/deep' failed: the package narrow does not export './deep' — import a path that the \"exports\" of narrow's package.json lists (node module imports.ts) (E_NODE_MODULE)",
      ],
      [
        "import { narrow } from 'narrow';\nexport const nodes = [narrow];\n",
        "imports.ts:1:10: import 'narrow' failed: it has no export named 'narrow' — import a name it exports (check the spelling, and whether it is a default export) (node module imports.ts) (E_NODE_MODULE)",
      ],
      [
        "import { joined } from 'node:nowhere';\nexport const nodes = [joined];\n",
        "imports.ts: import 'node:nowhere' failed: Node has no such built-in module — check the name after node: (node module imports.ts) (E_NODE_MODULE)",
      ],
    ];
    // Each under a name of its own: a module that failed stays failed under its URL for the process.
    for (const [index, [source, message]] of cases.entries()) {
      const name = `imports-${index}.ts`;
      await writeFile(join(commonjs(), name), source);
      expect(await refusal(loadNodeModule(name, commonjs()))).toBe(message.replaceAll('imports.ts', name));
    }
  });

  it('names the helper that makes it, and a CommonJS helper failing under an ES module is reported once, without a stack', () => {
    const dir = commonjs();
    writeFileSync(join(dir, 'cjs-helper.ts'), "exports.helper = require('left-pad');\n");
    writeFileSync(
      join(dir, 'esm-helper.ts'),
      "import { pad } from 'left-pad';\nexport const helper = pad;\n",
    );
    writeFileSync(join(dir, 'greet.jsonld'), readFileSync(join(ROOT, 'test/package/fixtures/greet.jsonld')));
    for (const helper of ['cjs-helper', 'esm-helper']) {
      writeFileSync(
        join(dir, 'uses.ts'),
        `import { helper } from './${helper}.ts';\nexport const nodes = [helper];\n`,
      );
      // As a process of its own, from the sources through a tsx registered for the whole process.
      const child = spawnSync(
        process.execPath,
        [...SWITCHYARD, 'run', 'greet.jsonld', '--nodes', 'uses.ts'],
        {
          cwd: dir,
          encoding: 'utf8',
        },
      );
      expect(child.stderr.trimEnd().split('\n'), helper).toEqual([
        `switchyard: ${helper}.ts: import 'left-pad' failed: the package left-pad is not installed — install it in the node module's project: \`npm install left-pad\` (node module uses.ts) (E_NODE_MODULE)`,
      ]);
      expect(child.status, helper).toBe(1);
    }
  });
});

describe('which TypeScript source is an ES module', () => {
  it.each([
    ["import { x } from 'y';", true],
    ["import type { X } from 'y';\nexport const a = 1;", true],
    ['export default [];', true],
    ['const here = import.meta.url;', true],
    [
      "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\nrequire('x');",
      true,
    ],
    ['// no require( here, nor module.exports\nexport const a = 1;', true],
    ["const url = 'https://example.org/a'; // see require('x')\nexport const a = url;", true],
    ["const x = require('y');\nexports.a = x;", false],
    ["import x = require('y');\nexport = x;", false],
    ["import { join } from 'node:path';\nexport const here = join(__dirname, 'x');", false],
    ["const m = await import('y');\nmodule.exports = m;", false],
    ['const a = 1;', false],
  ])('%j → %s', (source, expected) => {
    expect(isModuleSource(source)).toBe(expected);
  });
});
