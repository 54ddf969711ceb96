import jsonld from 'jsonld';
import { describe, expect, it } from 'vitest';
import { documentLoader } from '../../src/document/context-loader.ts';
import { loadDagFile } from '../../src/document/load.ts';
import { VOCAB_IRI } from '../../src/document/model.ts';
import { toDocument } from '../../src/document/serialise.ts';
import { readJson, SHIPPED } from './helpers.ts';

interface Term {
  termType: string;
  value: string;
}
interface Quad {
  subject: Term;
  predicate: Term;
  object: Term;
}

interface WrittenDag {
  '@id': string;
  placements: {
    key: string;
    kind: string;
    answers?: string[];
    routes?: { output: string; to: string; budget?: string; exhausted?: string }[];
  }[];
}

const sy = (term: string) => `${VOCAB_IRI}${term}`;

/** Only the shipped loader: jsonld.js must see every edge without anything of Switchyard's own. */
async function quadsOf(document: object): Promise<Quad[]> {
  const expanded = await jsonld.expand(document as never, { documentLoader: documentLoader as never });
  return (await jsonld.toRDF(expanded as never, {
    documentLoader: documentLoader as never,
  })) as unknown as Quad[];
}

function graphOf(quads: Quad[]) {
  const objects = (subject: string, predicate: string) =>
    quads
      .filter((q) => q.subject.value === subject && q.predicate.value === sy(predicate))
      .map((q) => q.object.value);
  const one = (subject: string, predicate: string) => objects(subject, predicate)[0];
  const placements = (dagId: string) =>
    objects(dagId, 'hasPlacement').map((node) => ({
      key: one(node, 'key'),
      kind: one(node, 'kind'),
      answers: objects(node, 'answer').sort(),
      routes: objects(node, 'hasRoute').map((route) => ({
        output: one(route, 'output'),
        to: one(route, 'to'),
        kind: one(route, 'kind'),
        budget: one(route, 'spends'),
        exhausted: one(route, 'exhaustedTo'),
      })),
    }));
  return { placements };
}

function byKey<T extends { key?: string | undefined }>(list: T[]): T[] {
  return [...list].sort((a, b) => String(a.key).localeCompare(String(b.key)));
}

function routeOrder<T extends { output?: string | undefined; to?: string | undefined }>(list: T[]): T[] {
  return [...list].sort((a, b) => `${a.output} ${a.to}`.localeCompare(`${b.output} ${b.to}`));
}

describe('a generic JSON-LD processor sees every placement and edge', () => {
  it.each(SHIPPED)('%s as written: placements, outputs, targets, budgets', async (file) => {
    const raw = readJson(file) as unknown as WrittenDag;
    const seen = graphOf(await quadsOf(raw)).placements(raw['@id']);
    const written = raw.placements.map((p) => ({
      key: p.key,
      kind: p.kind,
      answers: [...(p.answers ?? [])].sort(),
      routes: (p.routes ?? []).map((r) => ({
        output: r.output,
        to: r.to,
        budget: r.budget,
        exhausted: r.exhausted,
      })),
    }));
    expect(seen).toHaveLength(written.length);
    const stripKind = seen.map((p) => ({ ...p, routes: p.routes.map(({ kind: _k, ...r }) => r) }));
    expect(byKey(stripKind).map((p) => ({ ...p, routes: routeOrder(p.routes) }))).toEqual(
      byKey(written).map((p) => ({ ...p, routes: routeOrder(p.routes) })),
    );
  });

  it.each(SHIPPED)('%s through toDocument: every route with its kind', async (file) => {
    const { dag } = await loadDagFile(file);
    if (!dag) throw new Error(`${file} did not load`);
    const seen = graphOf(await quadsOf(toDocument(dag))).placements(dag.id);
    const expected = dag.placements.map((p) => ({
      key: p.key,
      kind: p.kind,
      answers: p.kind === 'await' ? [...p.answers] : [],
      routes: p.routes.map((r) => ({
        output: r.output,
        to: r.to,
        kind: r.kind,
        budget: r.budget,
        exhausted: r.exhausted,
      })),
    }));
    expect(byKey(seen).map((p) => ({ ...p, routes: routeOrder(p.routes) }))).toEqual(
      byKey(expected).map((p) => ({ ...p, routes: routeOrder(p.routes) })),
    );
    const routes = seen.flatMap((p) => p.routes);
    expect(routes.length).toBeGreaterThan(0);
    expect(routes.every((r) => r.kind === 'next' || r.kind === 'retry' || r.kind === 'salvage')).toBe(true);
  });
});
