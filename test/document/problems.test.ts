import { readFileSync } from 'node:fs';
import jsonld from 'jsonld';
import { describe, expect, it } from 'vitest';
import { documentLoader } from '../../src/document/context-loader.ts';
import { loadDagText } from '../../src/document/load.ts';
import { CONTEXT_IRI } from '../../src/document/model.ts';
import { parseJson } from '../../src/document/parse-json.ts';
import { isSwitchyardError } from '../../src/errors.ts';
import { readJson } from './helpers.ts';

const canonicalText = readFileSync('dags/compose-validate.jsonld', 'utf8');

describe('documentLoader', () => {
  it('serves the Switchyard context from schemas/', async () => {
    const remote = await documentLoader(CONTEXT_IRI);
    expect(remote.documentUrl).toBe(CONTEXT_IRI);
    expect(remote.document).toEqual(readJson('schemas/context.v1.jsonld'));
  });

  it.each([
    'https://schema.org/',
    'http://w3id.org/switchyard/context/v1',
    `${CONTEXT_IRI}/`,
    'file:///etc/passwd',
  ])('refuses %s with E_CONTEXT_REFUSED', async (url) => {
    const refusal = await documentLoader(url).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isSwitchyardError(refusal) && refusal.code).toBe('E_CONTEXT_REFUSED');
    expect((refusal as Error).message).toBe(
      `context ${url} is not served offline: Switchyard only loads its own context (${CONTEXT_IRI}); inline the context instead`,
    );
  });

  it('makes jsonld.expand fail on a foreign context', async () => {
    const doc = { '@context': 'https://schema.org/', name: 'x' };
    await expect(jsonld.expand(doc, { documentLoader: documentLoader as never })).rejects.toThrow();
  });

  it('turns a foreign context in a document into an E_CONTEXT_REFUSED problem', async () => {
    const document = readJson('dags/compose-validate.jsonld');
    document['@context'] = [CONTEXT_IRI, 'https://example.org/extra-terms'];
    const { dag, problems, form } = await loadDagText(JSON.stringify(document), 'x.jsonld');
    expect(dag).toBeUndefined();
    expect(form).toBe('jsonld');
    expect(problems).toMatchObject([
      {
        code: 'E_CONTEXT_REFUSED',
        file: 'x.jsonld',
        message: expect.stringContaining('https://example.org/extra-terms'),
      },
    ]);
  });
});

describe('lossy JSON-LD', () => {
  it('names a term the context does not define, with its pointer', async () => {
    const document = readJson('dags/compose-validate.jsonld');
    document['@context'] = [CONTEXT_IRI];
    (document.placements as Record<string, unknown>[])[1] = {
      ...(document.placements as Record<string, unknown>[])[1],
      retries: 3,
    };
    const { dag, problems } = await loadDagText(JSON.stringify(document));
    expect(dag).toBeUndefined();
    expect(problems).toMatchObject([
      {
        code: 'E_JSONLD_LOSSY',
        pointer: '/placements/1/retries',
        message: expect.stringContaining("term 'retries' is not in the Switchyard context"),
      },
    ]);
  });

  it('reports a term of the canonical form as a schema problem, not a lossy one', async () => {
    const document = readJson('dags/compose-validate.jsonld');
    document.retries = 3;
    const { problems, form } = await loadDagText(JSON.stringify(document));
    expect(form).toBe('canonical');
    expect(problems.map((p) => p.code)).toEqual(['E_SCHEMA']);
  });

  it('reports malformed JSON-LD as E_JSONLD on one line', async () => {
    const { problems } = await loadDagText(JSON.stringify({ '@context': { '@version': 2 }, '@id': 'urn:x' }));
    expect(problems).toHaveLength(1);
    expect(problems[0]?.code).toBe('E_JSONLD');
    expect(problems[0]?.message).not.toContain('\n');
  });
});

describe('JSON syntax', () => {
  it('gives the line and column of a trailing comma', async () => {
    const text = '{\n  "name": "x",\n  "entrypoints": ["a",],\n}';
    const { problems } = await loadDagText(text, 'bad.jsonld');
    expect(problems[0]).toMatchObject({ code: 'E_JSON_SYNTAX', file: 'bad.jsonld', line: 3, column: 23 });
    expect(problems[0]?.message).toContain('trailing comma');
    expect(problems.every((p) => p.code === 'E_JSON_SYNTAX')).toBe(true);
  });

  it('refuses comments', () => {
    const { value, problems } = parseJson('{\n  // note\n  "a": 1\n}');
    expect(value).toBeUndefined();
    expect(problems[0]).toMatchObject({ code: 'E_JSON_SYNTAX', line: 2, column: 3 });
    expect(problems[0]?.message).toContain('no comments');
  });

  it('refuses an empty file', () => {
    expect(parseJson('').problems.map((p) => p.code)).toEqual(['E_JSON_SYNTAX']);
  });

  it('locates pointers in the text', () => {
    const { locate } = parseJson('{\n  "a": [\n    1,\n    {"b/c": 2}\n  ]\n}');
    expect(locate('/a')).toEqual({ line: 2, column: 3 });
    expect(locate('/a/0')).toEqual({ line: 3, column: 5 });
    expect(locate('/a/1/b~1c')).toEqual({ line: 4, column: 6 });
    expect(locate('')).toEqual({ line: 1, column: 1 });
    expect(locate('/missing')).toBeUndefined();
  });
});

describe('schema problems', () => {
  it('collects every problem with pointer, line and column', async () => {
    const text = canonicalText
      .replace('"key": "validate",', '"key": "validate", "extra": true,')
      .replace('{ "output": "valid", "to": "done" }', '{ "output": "valid", "to": "done", "kind": "jump" }')
      .replace('"max": 3,', '"max": "3",')
      .replace('"kind": "terminal", "outcome": "completed", "label": "Salvaged"', '"kind": "terminus"');
    const { dag, problems } = await loadDagText(text, 'broken.jsonld');
    expect(dag).toBeUndefined();
    const lines = text.split('\n');
    const at = (needle: string) => {
      const line = lines.findIndex((l) => l.includes(needle));
      return { line: line + 1, column: (lines[line] ?? '').indexOf(needle) + 1 };
    };
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          code: 'E_SCHEMA',
          file: 'broken.jsonld',
          pointer: '/placements/1/extra',
          ...at('"extra"'),
          message: expect.stringMatching(
            /^placements\/1: unknown property 'extra' — remove it .*allowed: key, label/,
          ),
        }),
        expect.objectContaining({
          pointer: '/placements/1/routes/0/kind',
          ...at('"kind": "jump"'),
          message: 'placements/1/routes/0/kind: "jump" is not allowed — use one of next, retry, salvage',
        }),
        expect.objectContaining({
          pointer: '/budgets/0/max',
          message: expect.stringContaining('must be integer'),
        }),
        expect.objectContaining({
          pointer: '/placements/4/kind',
          message: expect.stringContaining('use one of task, await, scatter, gather, embed, terminal, phase'),
        }),
      ]),
    );
    expect(problems).toHaveLength(4);
  });

  it('says a scatter needs exactly one of node or dag', async () => {
    const document = readJson('dags/scatter-gather.jsonld');
    (document.placements as Record<string, unknown>[])[0] = {
      ...(document.placements as Record<string, unknown>[])[0],
      dag: 'urn:switchyard:dag:other',
    };
    const text = JSON.stringify(document, null, 2);
    const line = text.split('\n').findIndex((l) => l.includes('"placements"')) + 2;
    const { problems } = await loadDagText(text);
    expect(problems).toMatchObject([
      {
        code: 'E_SCHEMA',
        pointer: '/placements/0',
        line,
        column: 5,
        message: expect.stringContaining("exactly one of 'node' or 'dag'"),
      },
    ]);
  });

  it('says which required property is missing', async () => {
    const document = readJson('dags/checkout.jsonld');
    delete document.version;
    const { problems } = await loadDagText(JSON.stringify(document));
    expect(problems).toMatchObject([
      { code: 'E_SCHEMA', pointer: '', message: "document: missing required property 'version' — add it" },
    ]);
  });

  it('labels problems found after normalising and points at the value as written', async () => {
    const document = readJson('dags/checkout.jsonld');
    document['@context'] = [CONTEXT_IRI];
    document.version = '';
    const { problems, form } = await loadDagText(JSON.stringify(document));
    expect(form).toBe('jsonld');
    expect(problems).toHaveLength(1);
    expect(problems[0]?.message).toBe(
      'in the normalised compact form, version: must not be empty — fill it in',
    );
    expect(problems[0]).toMatchObject({ pointer: '/version', line: 1 });
  });
});
