import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadedBy } from './loaded-modules.ts';

// Packages only some commands need: each must stay unloaded by a command that does not use it.
const RENDERING = ['@mermaid-js/mermaid-cli', 'puppeteer', 'puppeteer-core'];
const JSON_LD = ['jsonld'];
const SCHEMA_COMPILER = ['ajv', 'ajv-formats'];
const STORE = ['better-sqlite3'];
const HASHING = ['rdf-canonize'];
const SEARCH = ['minisearch'];
const MODEL_CLIENTS = ['openai', 'ollama'];

function expectNone(loaded: ReadonlySet<string>, names: readonly string[]): void {
  expect(names.filter((name) => loaded.has(name))).toEqual([]);
}

describe('a command loads only what it uses (from the sources)', () => {
  it('--help loads no command implementation and none of the heavy packages', async () => {
    const { packages, files, stdout } = await loadedBy('bin/dev/switchyard.js', ['--help']);
    expect(stdout).toMatch(/Usage: switchyard/);
    expectNone(packages, [...RENDERING, ...JSON_LD, ...SCHEMA_COMPILER, ...STORE, ...HASHING]);
    expect(
      [...files].filter((f) => f.startsWith('src/cli/actions/') || f.startsWith('src/runtime/')),
    ).toEqual([]);
  });

  it('validate of a document in the canonical form loads neither jsonld nor a schema compiler', async () => {
    const { packages, files, stdout } = await loadedBy('bin/dev/switchyard.js', [
      'validate',
      'dags/compose-validate.jsonld',
    ]);
    expect(stdout).toMatch(/1 document checked: all valid/);
    expectNone(packages, [...RENDERING, ...JSON_LD, ...SCHEMA_COMPILER, ...STORE, ...HASHING]);
    expect(files.has('src/document/dag.validator.generated.ts')).toBe(true);
    expect(files.has('src/document/normalise.ts')).toBe(false);
  });

  it('validate of the expanded form loads jsonld to normalise it', async () => {
    const { packages, stdout } = await loadedBy('bin/dev/switchyard.js', [
      'validate',
      'test/fixtures/forms/compose-validate.expanded.jsonld',
    ]);
    expect(stdout).toMatch(/1 document checked: all valid/);
    expect(packages.has('jsonld')).toBe(true);
    expectNone(packages, [...RENDERING, ...SCHEMA_COMPILER]);
  });

  it('hash loads rdf-canonize but not jsonld; render to .mmd loads no browser', async () => {
    const hash = await loadedBy('bin/dev/switchyard.js', ['hash', 'dags/compose-validate.jsonld']);
    expect(hash.stdout).toMatch(/^[0-9a-f]{64} {2}urn:switchyard:dag:compose-validate/);
    expect(hash.packages.has('rdf-canonize')).toBe(true);
    expectNone(hash.packages, [...RENDERING, ...JSON_LD, ...SCHEMA_COMPILER, ...STORE]);
    const dir = await mkdtemp(join(tmpdir(), 'switchyard-mmd-'));
    try {
      const out = join(dir, 'cv.mmd');
      const mmd = await loadedBy('bin/dev/switchyard.js', [
        'render',
        'dags/compose-validate.jsonld',
        '-o',
        out,
      ]);
      expect(await readFile(out, 'utf8')).toMatch(/^%%\{init|^flowchart|^graph/mu);
      expect(mmd.files.has('src/render/mermaid.ts')).toBe(true);
      expectNone(mmd.packages, [...RENDERING, ...JSON_LD, ...SCHEMA_COMPILER, ...STORE]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('archivist ask offline loads neither a model client, a browser nor jsonld', async () => {
    const { packages, stdout } = await loadedBy('bin/dev/archivist.js', [
      'ask',
      '--no-store',
      'books by Ursula K. Le Guin',
    ]);
    expect(stdout).toMatch(/Le Guin/);
    expect(SEARCH.every((name) => packages.has(name))).toBe(true);
    expectNone(packages, [...RENDERING, ...JSON_LD, ...SCHEMA_COMPILER, ...MODEL_CLIENTS, ...STORE]);
  });
});
