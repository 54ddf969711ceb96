import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jsonld from 'jsonld';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentLoader } from '../../src/document/context-loader.ts';
import { exportDag } from '../../src/document/export.ts';
import { hashDag } from '../../src/document/hash.ts';
import { loadDagFile, loadDagFolder, loadDagText } from '../../src/document/load.ts';
import { CONTEXT_IRI, type Dag, VOCAB_IRI } from '../../src/document/model.ts';
import { readDocumentFile } from '../../src/document/read-file.ts';
import { toDocument } from '../../src/document/serialise.ts';
import type { Problem } from '../../src/errors.ts';
import { createVirtualClock } from '../../src/policy/virtual-clock.ts';
import { createDispatcher } from '../../src/runtime/dispatcher.ts';
import { defineNode } from '../../src/runtime/node.ts';
import { runCli } from '../cli/run-cli.ts';
import { readJson, SHIPPED } from '../document/helpers.ts';

const HOSTILE = 'test/fixtures/hostile';
const CV = 'dags/compose-validate.jsonld';

/** Every problem is one line with a code, and nothing is a stack trace. */
function oneLineEach(problems: readonly Problem[]): void {
  for (const p of problems) {
    expect(p.code).toMatch(/^[EW]_[A-Z_]+$/);
    expect(p.message).not.toMatch(/\n/);
    expect(p.message.length).toBeLessThan(600);
    expect(p.message).not.toMatch(/RangeError|Maximum call stack|\n\s+at /);
  }
}

function codes(problems: readonly Problem[]): string[] {
  return problems.map((p) => p.code);
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-hardening-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A fresh folder below the temporary one. */
async function folder(name: string): Promise<string> {
  const path = join(dir, name);
  await mkdir(path, { recursive: true });
  return path;
}

/** compose-validate under another @id, written to `path`. */
async function cvAs(path: string, id: string, change: (d: Record<string, unknown>) => void = () => {}) {
  const document = readJson(CV);
  document['@id'] = id;
  change(document);
  await writeFile(path, JSON.stringify(document, null, 2));
}

/** A document that embeds `iri` (and `also`, when given), written to `path`. */
async function embedderAt(path: string, id: string, iri: string, also?: string): Promise<void> {
  const more =
    also === undefined
      ? []
      : [
          {
            key: 'also',
            kind: 'embed',
            dag: also,
            routes: [
              { output: 'completed', to: 'done' },
              { output: 'failed', to: 'failed' },
            ],
          },
        ];
  await writeFile(
    path,
    JSON.stringify({
      '@context': CONTEXT_IRI,
      '@id': id,
      '@type': 'Dag',
      name: 'Embedder',
      version: '1',
      entrypoints: ['child'],
      placements: [
        {
          key: 'child',
          kind: 'embed',
          dag: iri,
          routes: [
            { output: 'completed', to: more.length > 0 ? 'also' : 'done' },
            { output: 'failed', to: 'failed' },
          ],
        },
        ...more,
        { key: 'done', kind: 'terminal', outcome: 'completed' },
        { key: 'failed', kind: 'terminal', outcome: 'failed' },
      ],
    }),
  );
}

describe('hostile JSON is refused with one line', () => {
  it.each([
    ['deep-valid.jsonld', 'E_TOO_DEEP'],
    ['deep-invalid.jsonld', 'E_TOO_DEEP'],
    ['deep-description.jsonld', 'E_TOO_DEEP'],
  ])('%s: %s with the line and column where the limit is passed', async (name, code) => {
    const { dag, problems } = await loadDagFile(join(HOSTILE, name));
    expect(dag).toBeUndefined();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ code, line: expect.any(Number), column: expect.any(Number) });
    expect(problems[0]?.message).toContain('64');
    oneLineEach(problems);
  });

  it('validate prints one line for a 5,000-deep document, never a stack trace', async () => {
    const { code, out, err } = await runCli(['validate', join(HOSTILE, 'deep-invalid.jsonld')]);
    expect(code).toBe(1);
    expect(err).toBe('');
    expect(out).toMatch(/deep-invalid\.jsonld:1:\d+ error E_TOO_DEEP /);
    expect(out).not.toMatch(/RangeError|\n\s+at /);
  });

  it('a number too large for a double is out of range, said as Infinity', async () => {
    const { problems } = await loadDagFile(join(HOSTILE, 'huge-number.jsonld'));
    expect(problems).toMatchObject([
      {
        code: 'E_SCHEMA',
        pointer: '/budgets/0/max',
        message: expect.stringContaining('not Infinity'),
      },
    ]);
  });

  it('a long string is quoted short', async () => {
    const { problems } = await loadDagFile(join(HOSTILE, 'long-string.jsonld'));
    expect(codes(problems)).toContain('E_SCHEMA');
    oneLineEach(problems);
    for (const p of problems) expect(p.message.length).toBeLessThan(400);
  });

  it('ten thousand unknown keys give a bounded list of problems', async () => {
    const document = readJson(CV);
    for (let i = 0; i < 10_000; i++) document[`k${i}`] = i;
    const { problems } = await loadDagText(JSON.stringify(document, null, 1), 'many-keys.jsonld');
    expect(problems.length).toBeLessThanOrEqual(51);
    expect(problems.at(-1)?.message).toContain('more schema problems not shown');
    oneLineEach(problems);
  });

  it('control characters in names and values stay escaped, one line per problem', async () => {
    const document = readJson(CV);
    document['bad\nkey'] = 1;
    const placements = document.placements as Record<string, unknown>[];
    (placements[0] as Record<string, unknown>).kind = 'ta\nsk';
    const { problems } = await loadDagText(JSON.stringify(document));
    expect(problems).toHaveLength(2);
    oneLineEach(problems);
    expect(problems.map((p) => p.message).join(' ')).toContain('bad\\nkey');
  });

  it('a file over the size limit is refused before it is read', async () => {
    const path = join(await folder('size'), 'big.jsonld');
    await writeFile(path, ' '.repeat(2048));
    const read = await readDocumentFile(path, 1024);
    expect(read).toMatchObject({ problem: { code: 'E_TOO_LARGE', file: path } });
  });
});

describe('documents beside the named one', () => {
  it('a FIFO named *.jsonld beside the document does not hang validate, and named itself is one line', async () => {
    const work = await folder('fifo');
    await cvAs(join(work, 'main.jsonld'), 'urn:t:fifo-main');
    execFileSync('mkfifo', [join(work, 'x.jsonld')]);
    const beside = await runCli(['validate', join(work, 'main.jsonld')], work);
    expect(beside.out).toContain('1 document checked: all valid');
    expect(beside.code).toBe(0);
    const folderRun = await runCli(['validate', work], work);
    expect(folderRun.out).toContain('1 document checked: all valid');
    const named = await runCli(['validate', join(work, 'x.jsonld')], work);
    expect(named.code).toBe(1);
    expect(named.out).toMatch(/error E_FILE_READ .*not a regular file/);
  });

  it('a 5,000-deep sibling, or one in ./dags, does not break the named document', async () => {
    const work = await folder('deep-sibling');
    await cvAs(join(work, 'main.jsonld'), 'urn:t:deep-main');
    await copyFile(join(HOSTILE, 'deep-invalid.jsonld'), join(work, 'deep.jsonld'));
    await mkdir(join(work, 'dags'));
    await copyFile(join(HOSTILE, 'deep-valid.jsonld'), join(work, 'dags', 'deep.jsonld'));
    const { code, out } = await runCli(['validate', 'main.jsonld'], work);
    expect(out).toContain('1 document checked: all valid');
    expect(code).toBe(0);
    expect((await runCli(['hash', 'main.jsonld'], work)).code).toBe(0);
  });

  it('a needed sibling is found past broken, deep and special files; a missing one is reported as usual', async () => {
    const work = await folder('needed');
    await embedderAt(join(work, 'main.jsonld'), 'urn:t:needs', 'urn:t:child');
    await cvAs(join(work, 'child.jsonld'), 'urn:t:child');
    await copyFile(join(HOSTILE, 'deep-invalid.jsonld'), join(work, 'a-deep.jsonld'));
    await writeFile(join(work, 'b-broken.jsonld'), '{ "not": ');
    execFileSync('mkfifo', [join(work, 'c-fifo.jsonld')]);
    const found = await runCli(['validate', 'main.jsonld'], work);
    expect(found.out).toContain('all valid');
    await embedderAt(join(work, 'main.jsonld'), 'urn:t:needs', 'urn:t:absent');
    const missing = await runCli(['validate', 'main.jsonld'], work);
    expect(missing.code).toBe(1);
    expect(missing.out).toMatch(/main\.jsonld:\d+:\d+ error E_UNKNOWN_DAG .*urn:t:absent/);
  });

  it('a symbolic link out of the folder is not followed', async () => {
    const outside = await folder('outside');
    await cvAs(join(outside, 'secret.jsonld'), 'urn:t:outside');
    const work = await folder('links');
    await embedderAt(join(work, 'main.jsonld'), 'urn:t:links', 'urn:t:outside');
    execFileSync('ln', ['-s', join(outside, 'secret.jsonld'), join(work, 'link.jsonld')]);
    const { out } = await runCli(['validate', 'main.jsonld'], work);
    expect(out).toMatch(/E_UNKNOWN_DAG .*urn:t:outside/);
  });
});

describe('duplicate @id', () => {
  it('two named documents with one @id warn, naming both files', async () => {
    const work = await folder('dup-named');
    await cvAs(join(work, 'one.jsonld'), 'urn:t:same');
    await cvAs(join(work, 'two.jsonld'), 'urn:t:same');
    const { out } = await runCli(['validate', work], work);
    const warnings = out.split('\n').filter((l) => l.includes('W_DUPLICATE_ID'));
    expect(warnings).toHaveLength(2);
    for (const line of warnings) expect(line).toMatch(/one\.jsonld.*two\.jsonld|two\.jsonld.*one\.jsonld/);
  });

  it('loadDagFolder warns on both documents of a shared @id and leaves that IRI out of its library', async () => {
    const work = await folder('dup-api');
    await cvAs(join(work, 'a.jsonld'), 'urn:t:api-twice');
    await cvAs(join(work, 'b.jsonld'), 'urn:t:api-twice');
    await cvAs(join(work, 'c.jsonld'), 'urn:t:api-once');
    const { results, library } = await loadDagFolder([work]);
    const warned = [...results].filter(([, r]) => r.problems.some((p) => p.code === 'W_DUPLICATE_ID'));
    expect(warned.map(([file]) => file)).toEqual([join(work, 'a.jsonld'), join(work, 'b.jsonld')]);
    expect(library.get('urn:t:api-twice')).toBeUndefined();
    expect(library.get('urn:t:api-once')).toBeDefined();
  });

  it('an embed of an IRI two siblings define is refused, naming both, instead of picking one by file name', async () => {
    const work = await folder('dup-siblings');
    await embedderAt(join(work, 'main.jsonld'), 'urn:t:dup-main', 'urn:t:twice');
    await cvAs(join(work, 'a.jsonld'), 'urn:t:twice');
    await cvAs(join(work, 'b.jsonld'), 'urn:t:twice', (d) => {
      d.name = 'The other one';
    });
    const { code, out } = await runCli(['validate', 'main.jsonld'], work);
    expect(code).toBe(1);
    expect(out).toMatch(/main\.jsonld:\d+:\d+ error E_AMBIGUOUS_DAG .*a\.jsonld.*b\.jsonld/);
    expect(out).not.toContain('E_UNKNOWN_DAG');
  });

  it('the named document wins over a sibling with its @id, with a warning', async () => {
    const work = await folder('dup-shadow');
    // The second embed is of a sibling, so the folder is read, and the copy beside the named child is seen.
    await embedderAt(join(work, 'main.jsonld'), 'urn:t:shadow', 'urn:t:shadow-child', 'urn:t:beside');
    await cvAs(join(work, 'child.jsonld'), 'urn:t:shadow-child');
    await cvAs(join(work, 'beside.jsonld'), 'urn:t:beside');
    await cvAs(join(work, 'copy.jsonld'), 'urn:t:shadow-child');
    const { out } = await runCli(['validate', 'main.jsonld', 'child.jsonld'], work);
    expect(out).toContain('all valid');
    expect(out).toMatch(/child\.jsonld:\d+:\d+ warning W_DUPLICATE_ID .*copy\.jsonld/);
  });
});

/** The graph of a model, written as N-Quads, read back by jsonld.js and framed with our context. */
async function throughRdf(dag: Dag): Promise<Record<string, unknown>> {
  const nquads = await exportDag(dag, 'nquads');
  const options = { documentLoader: documentLoader as never };
  const fromRdf = await jsonld.fromRDF(nquads as never, { format: 'application/n-quads' } as never);
  return (await jsonld.frame(
    fromRdf as never,
    { '@context': CONTEXT_IRI, '@type': 'Dag' } as never,
    options as never,
  )) as unknown as Record<string, unknown>;
}

describe('one graph, one reading', () => {
  it.each(SHIPPED)('%s survives N-Quads → fromRDF → frame with the same hash and model', async (file) => {
    const { dag } = await loadDagFile(file);
    if (!dag) throw new Error(`${file} does not load`);
    const framed = await throughRdf(dag);
    const again = await loadDagText(JSON.stringify(framed, null, 2), `${file}.framed`);
    expect(again.problems).toEqual([]);
    expect(again.dag).toStrictEqual(dag);
    if (!again.dag) return;
    expect(await hashDag(again.dag)).toBe(await hashDag(dag));
  });

  it('typed literals, "@type": ["Dag"] and a single value for a set or list load as the canonical graph', async () => {
    const plain = readJson(CV);
    const salvageOf = (d: Record<string, unknown>) =>
      (d.placements as Record<string, unknown>[]).find((p) => p.key === 'salvage') as Record<string, unknown>;
    salvageOf(plain).routes = [(salvageOf(plain).routes as unknown[])[0]];
    const { dag } = await loadDagText(JSON.stringify(plain));
    const document = JSON.parse(JSON.stringify(plain)) as Record<string, unknown>;
    document['@type'] = ['Dag'];
    document.entrypoints = 'compose';
    for (const budget of document.budgets as Record<string, unknown>[]) {
      budget.max = { '@value': String(budget.max), '@type': 'http://www.w3.org/2001/XMLSchema#integer' };
    }
    salvageOf(document).routes = (salvageOf(document).routes as unknown[])[0];
    const loaded = await loadDagText(JSON.stringify(document));
    expect(loaded.problems).toEqual([]);
    expect(loaded.form).toBe('jsonld');
    expect(loaded.dag).toStrictEqual(dag);
    expect(await hashDag(loaded.dag as Dag)).toBe(await hashDag(dag as Dag));
  });

  it('a vocabulary IRI reads the same on the fast path and the JSON-LD path', async () => {
    const full = `${VOCAB_IRI}compose`;
    const document = readJson(CV);
    const compose = (document.placements as Record<string, unknown>[])[0] as Record<string, unknown>;
    compose.node = full;
    const fast = await loadDagText(JSON.stringify(document));
    expect(fast.form).toBe('canonical');
    const expanded = await loadDagText(await exportDag(fast.dag as Dag, 'expanded'));
    expect(expanded.form).toBe('jsonld');
    expect(expanded.dag).toStrictEqual(fast.dag);
    compose.node = 'sy:compose';
    const prefixed = await loadDagText(JSON.stringify(document));
    expect(prefixed.dag).toStrictEqual(fast.dag);
    expect(fast.dag?.placements.find((p) => p.key === 'compose')).toMatchObject({ node: full });
    expect(await hashDag(prefixed.dag as Dag)).toBe(await hashDag(fast.dag as Dag));
  });

  it.each([
    ['flattened-orphan.jsonld', /urn:switchyard:test:orphan.* not reached from the DAG/],
    ['flattened-extra-node.jsonld', /not reached from the DAG/],
    ['flattened-named-graph.jsonld', /named graph/],
  ])('%s is E_JSONLD_LOSSY at the node as written', async (name, message) => {
    const text = await readFile(join(HOSTILE, name), 'utf8');
    const { dag, problems } = await loadDagText(text, name);
    expect(dag).toBeUndefined();
    expect(problems[0]).toMatchObject({ code: 'E_JSONLD_LOSSY', message: expect.stringMatching(message) });
    const line = problems[0]?.line ?? 0;
    expect(line).toBeGreaterThan(100);
    expect(problems[0]?.pointer).toMatch(/^\/@graph\/\d+/);
  });

  it('a flattened node written in two pieces loads as one, like the canonical document', async () => {
    const { dag } = await loadDagFile(CV);
    const flat = readJson('test/fixtures/forms/compose-validate.flattened.jsonld');
    const graph = flat['@graph'] as Record<string, unknown>[];
    const top = graph.find((n) => n['@type'] === 'Dag') as Record<string, unknown>;
    const { budgets, ...rest } = top;
    graph.splice(graph.indexOf(top), 1, rest, { '@id': top['@id'], budgets });
    const loaded = await loadDagText(JSON.stringify(flat));
    expect(loaded.problems).toEqual([]);
    expect(loaded.dag).toStrictEqual(dag);
  });

  it('a scoped remote context is E_CONTEXT_REFUSED at its position', async () => {
    const { problems } = await loadDagFile(join(HOSTILE, 'scoped-remote-context.jsonld'));
    expect(problems).toMatchObject([
      { code: 'E_CONTEXT_REFUSED', pointer: '/@context/1/steps/@context', line: expect.any(Number) },
    ]);
    oneLineEach(problems);
  });

  it('more scoped contexts than the limit are refused with one line before the processor runs', async () => {
    const document = readJson(CV);
    const terms: Record<string, unknown> = {};
    for (let i = 0; i < 101; i++) terms[`t${i}`] = { '@id': `sy:t${i}`, '@context': { x: 'sy:x' } };
    document['@context'] = [terms, CONTEXT_IRI];
    const { problems } = await loadDagText(JSON.stringify(document, null, 2));
    expect(problems).toMatchObject([
      { code: 'E_JSONLD', message: expect.stringContaining('limit of 100'), line: expect.any(Number) },
    ]);
  });

  it('analysis problems of an expanded document point at the text as written', async () => {
    const document = readJson(CV);
    const validate = (document.placements as Record<string, unknown>[])[1] as Record<string, unknown>;
    (validate.routes as Record<string, unknown>[])[0] = { output: 'valid', to: 'nowhere' };
    const { dag } = await loadDagText(JSON.stringify(document));
    const expanded = await exportDag(dag as Dag, 'expanded');
    const work = await folder('expanded-problem');
    await writeFile(join(work, 'dag.jsonld'), expanded);
    const { out } = await runCli(['validate', 'dag.jsonld'], work);
    const line = out.split('\n').find((l) => l.includes('E_DANGLING_ROUTE')) ?? '';
    const [, lineNo] = /dag\.jsonld:(\d+):\d+ /.exec(line) ?? [];
    expect(Number(lineNo)).toBeGreaterThan(1);
    // The line of the route's target as written: its property, whose value follows.
    const written = expanded
      .split('\n')
      .slice(Number(lineNo) - 1, Number(lineNo) + 3)
      .join('\n');
    expect(written).toMatch(/vocab#to"[\s\S]*"nowhere"/);
  });
});

describe('pointers never name a prototype key', () => {
  it('an embed mapping from /__proto__ is refused at its position', async () => {
    const { problems } = await loadDagFile(join(HOSTILE, 'proto-mapping.jsonld'));
    expect(problems).toMatchObject([
      {
        code: 'E_SCHEMA',
        pointer: '/placements/6/result/0/from',
        line: expect.any(Number),
        message: expect.stringContaining('__proto__'),
      },
    ]);
  });

  it('scatter items and gather into with constructor or prototype are refused', async () => {
    const { problems } = await loadDagFile(join(HOSTILE, 'proto-items.jsonld'));
    expect(problems.map((p) => p.pointer).sort()).toEqual(['/placements/6/items', '/placements/7/into']);
    expect(codes(problems)).toEqual(['E_SCHEMA', 'E_SCHEMA']);
  });
});

describe('the default entrypoint', () => {
  const twoStarts = {
    '@context': CONTEXT_IRI,
    '@id': 'urn:t:two-starts',
    '@type': 'Dag',
    name: 'Two starts',
    version: '1',
    entrypoints: ['b', 'a'],
    placements: [
      { key: 'a', kind: 'task', node: 'urn:t:node', routes: [{ output: 'ok', to: 'from_a' }] },
      { key: 'b', kind: 'task', node: 'urn:t:node', routes: [{ output: 'ok', to: 'from_b' }] },
      { key: 'from_a', kind: 'terminal', outcome: 'completed' },
      { key: 'from_b', kind: 'terminal', outcome: 'completed' },
    ],
  };

  it('is the first written, in every JSON-LD form, and the order is part of the hash', async () => {
    const { dag } = await loadDagText(JSON.stringify(twoStarts));
    expect(dag?.entrypoints).toEqual(['b', 'a']);
    const expanded = await loadDagText(await exportDag(dag as Dag, 'expanded'));
    expect(expanded.dag?.entrypoints).toEqual(['b', 'a']);
    const framed = await loadDagText(JSON.stringify(await throughRdf(dag as Dag)));
    expect(framed.dag?.entrypoints).toEqual(['b', 'a']);
    const swapped = await loadDagText(JSON.stringify({ ...twoStarts, entrypoints: ['a', 'b'] }));
    expect(await hashDag(swapped.dag as Dag)).not.toBe(await hashDag(dag as Dag));
    expect(toDocument(dag as Dag).entrypoints).toEqual(['b', 'a']);
  });

  it('a run without an entrypoint starts at the first written', async () => {
    const { dag } = await loadDagText(JSON.stringify(twoStarts));
    const node = defineNode({ id: 'urn:t:node', outputs: ['ok'], run: () => 'ok' });
    const dispatcher = createDispatcher({ nodes: [node], clock: createVirtualClock({ auto: true }) });
    const result = await dispatcher.run(dag as Dag, {});
    expect(result.items.map((i) => i.terminal)).toEqual(['from_b']);
  });
});
