/** The size of a diagram as the viewer counts it on the model: exactly what Mermaid would draw. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateDag } from '../../bench/generate.ts';
import { loadDagFile } from '../../src/document/load.ts';
import type { Dag } from '../../src/document/model.ts';
import { toMermaid } from '../../src/render/mermaid.ts';
import { DIAGRAM_LIMIT, diagramTooLarge } from '../../src/ui/diagram-size.ts';
import { DAGS } from './helpers.ts';

/** The arrows and shapes of Mermaid text: edge lines, and node lines (start markers included). */
function drawn(dag: Dag): { arrows: number; shapes: number } {
  const lines = toMermaid(dag).split('\n');
  const arrows = lines.filter((l) => / (-->|-\.->|==>)/u.test(l)).length;
  const shapes = lines.filter((l) => /^ {2}[a-z]\w*[[(/\\{]/u.test(l)).length;
  return { arrows, shapes };
}

describe('diagramTooLarge', () => {
  const documents = readdirSync(DAGS, { recursive: true, encoding: 'utf8' }).filter((f) =>
    f.endsWith('.jsonld'),
  );

  it.each(documents)('counts the arrows and shapes Mermaid draws for %s', async (file) => {
    const { dag } = await loadDagFile(join(DAGS, file));
    if (dag === undefined) throw new Error(`${file} does not load`);
    const size = diagramTooLarge(dag, 0);
    const { arrows, shapes } = drawn(dag);
    expect(size?.edges).toBe(arrows);
    expect((size?.placements ?? 0) + dag.entrypoints.length).toBe(shapes);
    expect(diagramTooLarge(dag)).toBeUndefined();
  });

  it("counts an await's deadline route as an arrow of its own beside a next route to the same placement", async () => {
    const { dag } = await loadDagFile(join(DAGS, 'approval.jsonld'));
    if (dag === undefined) throw new Error('approval.jsonld does not load');
    const rejectedOnDeadline: Dag = {
      ...dag,
      placements: dag.placements.map((p) =>
        p.key !== 'review'
          ? p
          : { ...p, routes: p.routes.map((r) => (r.output === 'deadline' ? { ...r, to: 'rejected' } : r)) },
      ),
    };
    expect(diagramTooLarge(rejectedOnDeadline, 0)?.edges).toBe(drawn(rejectedOnDeadline).arrows);
  });

  it('draws a document of 50 generated placements, and not one of 100', () => {
    for (const n of [50, 100, 1000])
      expect(diagramTooLarge(generateDag(n), 0)?.edges).toBe(drawn(generateDag(n)).arrows);
    expect(diagramTooLarge(generateDag(50))).toBeUndefined();
    expect(diagramTooLarge(generateDag(100))).toMatchObject({ placements: 100, limit: DIAGRAM_LIMIT });
  });
});
