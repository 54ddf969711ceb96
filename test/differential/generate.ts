/**
 * A seeded generator of valid documents for the differential suite: a root document of stages (tasks,
 * embeds, scatters over a node or over a sub-DAG with their gathers) and the child documents it runs, two
 * levels down at most; self-retry loops with budgets, loops that go back to an earlier scatter or embed,
 * salvage and exhaustion routes, pre/post phases; with the plans of their nodes (see `plans.ts`) and the
 * policy overrides each placement needs. The same seed always gives the same case.
 */
import { dag as build, type DagBuilder } from '../../src/document/builder.ts';
import type { TimingOverride } from '../../src/policy/types.ts';
import { feature, type Gen } from './draw.ts';
import { addEmbed, addScatter, addTask, type Doc, type Role, type StageKind } from './stages.ts';

const TERMINALS = ['done', 'failed', 'rescued'] as const;
/** The deepest level a document may be at (the root is 0). */
const MAX_DEPTH = 2;

function pickKind(g: Gen, depth: number): StageKind {
  const deeper = depth < MAX_DEPTH;
  return g.draw.weighted<StageKind>([
    ['task', 3],
    ['embed', deeper ? 2 : 0],
    ['scatter-node', 2],
    ['scatter-dag', deeper ? 1.5 : 0],
  ]);
}

/**
 * Builds one document (and, through {@link generateDocument}, every child it runs) and returns its IRI.
 * `role` says what data the document sees: the input item's, an embed's mapped copy, or a scatter child's
 * `{ item, index }`.
 */
export function generateDocument(g: Gen, depth: number, role: Role): string {
  const index = g.made++;
  const iri = index === 0 ? `urn:diff:${g.seed}:root` : `urn:diff:${g.seed}:d${index}`;
  const dataRoot = role === 'body' ? '/item' : '';
  const kinds: StageKind[] = [];
  for (let n = role === 'root' ? g.draw.int(2, 4) : g.draw.int(1, 3); n > 0; n--)
    kinds.push(pickKind(g, depth));
  const fanning = kinds.findIndex((k) => k === 'embed' || k.startsWith('scatter'));
  if (fanning >= 0 && g.draw.chance(role === 'root' ? 0.65 : 0.35)) {
    kinds.splice(g.draw.int(fanning + 1, kinds.length), 0, 'loop');
  }
  const keys = kinds.map((kind, i) =>
    kind === 'task'
      ? [`t${i}`]
      : kind === 'loop'
        ? [`L${i}`]
        : kind === 'embed'
          ? [`e${i}`]
          : [`s${i}`, `g${i}`],
  );
  const targeted = new Set<string>(['done']);
  const next = (i: number): string => keys[i + 1]?.[0] ?? 'done';
  const forward = (i: number): string => {
    const to = g.draw.pick([...keys.slice(i + 1).map((k) => k[0] as string), ...TERMINALS, 'failed']);
    targeted.add(to);
    return to;
  };
  const built: DagBuilder = build(iri, { name: `generated ${index}`, version: '1' }).entry(
    keys[0]?.[0] as string,
  );
  // Budgets in the order declared: a loop resets only budgets declared before its own.
  const declared: string[] = [];
  const b = built;
  const declare = (name: string, max: number): DagBuilder => {
    declared.push(name);
    return b.budget(name, max);
  };
  const nodeIri = (key: string) => `${iri}:node:${key}`;
  const timing = (key: string, override: TimingOverride) => {
    const name = `${iri}#${key}`;
    g.placements[name] = { ...g.placements[name], ...override };
  };

  const doc: Doc = {
    g,
    b,
    iri,
    depth,
    role,
    dataRoot,
    kinds,
    keys,
    declared,
    declare,
    next,
    forward,
    timing,
    nodeIri,
    child: (childRole) => generateDocument(g, depth + 1, childRole),
  };
  kinds.forEach((kind, i) => {
    if (kind === 'task' || kind === 'loop') addTask(doc, i, kind === 'loop');
    else if (kind === 'embed') addEmbed(doc, i);
    else addScatter(doc, i, kind === 'scatter-dag');
  });

  if (role === 'root') {
    for (const when of ['pre', 'post'] as const) {
      if (!g.draw.chance(0.3)) continue;
      const node = nodeIri(`${when}0`);
      const action = g.draw.weighted([
        ['ok', 6],
        ['step', 2.5],
        ['throw', 1.5],
      ] as const);
      b.phase(`${when}0`, when, node);
      g.plans.set(node, { kind: 'phase', action });
      feature(g, action === 'throw' ? `${when} phase fails` : `${when} phase`);
    }
  }
  if (targeted.has('done')) b.terminal('done', 'completed');
  if (targeted.has('failed')) b.terminal('failed', 'failed');
  if (targeted.has('rescued')) b.terminal('rescued', 'completed');
  const dag = b.build();
  // The root goes first, whatever order the children were made in.
  if (role === 'root') g.docs.unshift(dag);
  else g.docs.push(dag);
  return iri;
}

/**
 * Counts what retry routes enter again: scatters and embeds, and those whose document fans out once more
 * (an embed or a scatter inside it), whose children must belong to the visit that made them.
 */
export function noteReentries(g: Gen): void {
  const byIri = new Map(g.docs.map((d) => [d.id, d]));
  const fansOut = (iri: string | undefined) =>
    byIri.get(iri ?? '')?.placements.some((p) => p.kind === 'embed' || p.kind === 'scatter') === true;
  for (const where of g.reentered) {
    const key = where.slice(where.lastIndexOf('#') + 1);
    const kind = key.startsWith('e') ? 'an embed' : 'a scatter';
    feature(g, `retry re-enters ${kind}`);
    if (fansOut(g.runs.get(where))) feature(g, `retry re-enters ${kind} whose document fans out again`);
  }
}
