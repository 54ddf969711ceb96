import { describe, expect, it } from 'vitest';
import { DAG_FOLDER, OFFLINE_POLICY_FILE, POLICY_FILE } from '../../examples/archivist/paths.ts';
import { archivistNodes } from '../../nodes/archivist/index.ts';
import { loadDagFolder } from '../../src/document/load.ts';
import { analyse } from '../../src/graph/analyse.ts';
import { loadPolicyFile } from '../../src/policy/load.ts';
import { createRegistry } from '../../src/runtime/node.ts';

describe('the Archivist DAG documents', () => {
  it('load, and analyse clean against the registered nodes and each other', async () => {
    const { results, library } = await loadDagFolder([DAG_FOLDER]);
    expect([...results.keys()].map((f) => f.slice(DAG_FOLDER.length)).sort()).toEqual([
      'ask.jsonld',
      'compose-validate.jsonld',
    ]);
    const nodes = createRegistry(archivistNodes as never);
    for (const [file, result] of results) {
      expect(result.problems, file).toEqual([]);
      if (!result.dag) throw new Error(`${file} did not load`);
      expect(analyse(result.dag, { nodes, library, file }), file).toEqual([]);
    }
  });

  it('declare every retry and salvage as an edge', async () => {
    const { library } = await loadDagFolder([DAG_FOLDER]);
    const routes = (iri: string) =>
      library
        .get(iri)
        ?.placements.flatMap((p) => p.routes.map((r) => `${p.key}.${r.output}→${r.to}:${r.kind}`)) ?? [];
    expect(routes('urn:switchyard:dag:archivist:ask')).toEqual(
      expect.arrayContaining([
        'classify.retry→classify:retry',
        'classify.unclear→classify:retry',
        'classify.error→classify-rules:salvage',
        'answer.failed→salvage:salvage',
      ]),
    );
    expect(routes('urn:switchyard:dag:archivist:compose-validate')).toEqual(
      expect.arrayContaining([
        'validate.invalid→compose:retry',
        'compose.retry→compose:retry',
        'compose.error→salvage:salvage',
      ]),
    );
    const budgets = library.get('urn:switchyard:dag:archivist:compose-validate')?.budgets;
    expect(budgets).toContainEqual(expect.objectContaining({ name: 'compose', max: 3 }));
  });

  it('have valid policy files beside them', async () => {
    const real = await loadPolicyFile(POLICY_FILE);
    const offline = await loadPolicyFile(OFFLINE_POLICY_FILE);
    expect(real.nodes['urn:switchyard:node:archivist:compose']?.deadlineMs).toBe(60000);
    expect(offline.nodes['urn:switchyard:node:archivist:compose']?.deadlineMs).toBe(1500);
  });
});
