/**
 * The JSON-LD path: any JSON-LD form of a DAG (expanded, aliased terms, inline or array contexts, typed
 * literals, flattened) is expanded with the offline loader in safe mode, then framed back into the canonical
 * compact form that the schema and the model expect.
 */
import { type Problem, problem } from '../errors.ts';
import { refusedContexts } from './context-refs.ts';
import { nestFlattened } from './embed-nodes.ts';
import { expansionWork } from './expansion-work.ts';
import { inlineImports } from './inline-import.ts';
import { pointerSegment } from './json.ts';
import { compactDag, expand, oneLine, safeModeEvent, switchyardCause } from './jsonld-api.ts';
import { clip, MAX_EXPANSION_WORK } from './limits.ts';
import { namedGraphs, unreachedNodes } from './lossless.ts';
import { CONTEXT_IRI } from './model.ts';
import { isOneTree, nodeMap } from './node-map.ts';

const XSD = 'http://www.w3.org/2001/XMLSchema#';

/** The canonical compact document, or the problems that kept it from being produced. */
export interface Normalised {
  readonly canonical: Record<string, unknown> | undefined;
  readonly problems: readonly Problem[];
}

/** The native value of a typed literal the canonical form writes natively, or undefined. */
function nativeValue(node: Record<string, unknown>): number | string | undefined {
  const literal = node['@value'];
  if (typeof literal !== 'string' || Object.keys(node).length !== 2) return undefined;
  if (node['@type'] === `${XSD}integer` && /^[+-]?[0-9]+$/.test(literal)) {
    const number = Number(literal);
    if (Number.isSafeInteger(number)) return number;
  }
  return node['@type'] === `${XSD}string` ? literal : undefined;
}

/**
 * Rewrites, in place, the typed literals the canonical form writes natively (xsd:integer as a number,
 * xsd:string as a string), and writes each type of a node once. The expanded form is the processor's fresh
 * output, so nothing else sees it; one iterative pass, no copies.
 */
function nativeLiterals(expanded: unknown[]): unknown[] {
  const stack: unknown[] = [expanded];
  const visit = (holder: Record<string | number, unknown>, key: string | number) => {
    const inner = holder[key];
    if (inner === null || typeof inner !== 'object') return;
    // A type written twice is one triple.
    if (key === '@type' && Array.isArray(inner) && new Set(inner).size < inner.length) {
      holder[key] = [...new Set(inner)];
      return;
    }
    const native = Array.isArray(inner) ? undefined : nativeValue(inner as Record<string, unknown>);
    if (native === undefined) stack.push(inner);
    // defineProperty writes an own property whatever the key is called.
    else
      Object.defineProperty(holder, key, { value: { '@value': native }, enumerable: true, writable: true });
  };
  while (stack.length > 0) {
    const value = stack.pop() as Record<string | number, unknown>;
    if (Array.isArray(value)) for (let i = 0; i < value.length; i++) visit(value, i);
    else for (const key of Object.keys(value)) visit(value, key);
  }
  return expanded;
}

/** The JSON pointer of the first property named `name` in `value`, depth first. */
function findProperty(value: unknown, name: string, at = ''): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  for (const [key, inner] of entries) {
    const pointer = `${at}/${pointerSegment(key)}`;
    if (!Array.isArray(value) && key === name) return pointer;
    const found = findProperty(inner, name, pointer);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The pointer of the first string equal to `text` inside any `@context` of the document, else `/@context`. */
function contextPointer(raw: unknown, text: unknown): string {
  if (typeof text !== 'string') return '/@context';
  const stack: { value: unknown; pointer: string; inContext: boolean }[] = [
    { value: raw, pointer: '', inContext: false },
  ];
  while (stack.length > 0) {
    const { value, pointer, inContext } = stack.pop() as (typeof stack)[number];
    if (inContext && value === text) return pointer;
    if (value === null || typeof value !== 'object') continue;
    const entries = Array.isArray(value)
      ? value.map((v, i) => [String(i), v] as const)
      : Object.entries(value);
    for (const [key, inner] of entries) {
      const at = `${pointer}/${pointerSegment(key)}`;
      stack.push({ value: inner, pointer: at, inContext: inContext || key === '@context' });
    }
  }
  return '/@context';
}

function jsonLdProblem(error: unknown, raw: unknown, file: string | undefined): Problem {
  const where = file === undefined ? {} : { file };
  const refused = switchyardCause(error);
  const details = (error as { details?: { code?: unknown; context?: unknown; term?: unknown } } | null)
    ?.details;
  if (refused?.code === 'E_CONTEXT_REFUSED') {
    const url = /context (\S+) is not served/.exec(refused.message)?.[1];
    return problem('E_CONTEXT_REFUSED', refused.message, { ...where, pointer: contextPointer(raw, url) });
  }
  if (details?.code === 'invalid scoped context' && typeof details.term === 'string') {
    const pointer = findProperty(raw, details.term);
    return problem(
      'E_JSONLD',
      `the scoped context of term '${details.term}' is not valid — write it as an object of term definitions`,
      { ...where, pointer: pointer ?? '/@context' },
    );
  }
  const event = safeModeEvent(error);
  if (event) {
    const term = event.details.property;
    if (typeof term === 'string') {
      const pointer = findProperty(raw, term);
      return problem(
        'E_JSONLD_LOSSY',
        `term '${clip(term)}' is not in the Switchyard context, so a JSON-LD processor drops it — remove it, check its spelling, or map it to a Switchyard term in a local context`,
        { ...where, ...(pointer === undefined ? {} : { pointer }) },
      );
    }
    return problem(
      'E_JSONLD_LOSSY',
      `a JSON-LD processor would drop part of this document (${event.code}: ${event.message}) — write it with the terms of the Switchyard context`,
      { ...where, pointer: '' },
    );
  }
  const term = typeof details?.term === 'string' ? findProperty(raw, details.term) : undefined;
  return problem(
    'E_JSONLD',
    `not valid JSON-LD: ${oneLine(error).slice(0, 300)} — fix the document's JSON-LD structure`,
    { ...where, pointer: term ?? '' },
  );
}

/** An `E_TOO_COSTLY` problem when expanding `input` would cost more than {@link MAX_EXPANSION_WORK}. */
function tooCostly(input: unknown, file: string | undefined): Problem | undefined {
  const work = expansionWork(input, MAX_EXPANSION_WORK);
  if (work.units <= MAX_EXPANSION_WORK) return undefined;
  return problem(
    'E_TOO_COSTLY',
    `expanding this JSON-LD would process more than ${MAX_EXPANSION_WORK.toLocaleString('en')} term definitions (the costliest: ${work.what}), since a scoped context or a context on a node is processed again at every node that uses it — define the terms once in the top-level context instead`,
    { ...(file === undefined ? {} : { file }), pointer: work.pointer },
  );
}

function dagNodes(framed: Record<string, unknown>): Record<string, unknown>[] {
  const graph = framed['@graph'];
  const isDag = (node: Record<string, unknown>) => node['@type'] === 'Dag';
  if (Array.isArray(graph)) return (graph as Record<string, unknown>[]).filter(isDag);
  const { '@context': _context, ...node } = framed;
  return isDag(node) ? [node] : [];
}

/**
 * Normalises any JSON-LD form of a DAG document into its canonical compact form.
 *
 * @example
 * ```ts
 * const { canonical, problems } = await normalise(JSON.parse(expandedText), 'dag.expanded.jsonld');
 * ```
 */
export async function normalise(raw: unknown, file?: string): Promise<Normalised> {
  const where = file === undefined ? {} : { file };
  const refused = refusedContexts(raw, file);
  if (refused.length > 0) return { canonical: undefined, problems: refused };
  const input = inlineImports(raw);
  const costly = tooCostly(input, file);
  if (costly) return { canonical: undefined, problems: [costly] };
  let framed: Record<string, unknown>;
  try {
    const expanded = nativeLiterals(await expand(input));
    // Nesting keeps only what the Dag node reaches: anything else would be dropped without a word.
    const graphs = namedGraphs(expanded, raw, file);
    if (graphs.length > 0) return { canonical: undefined, problems: graphs };
    if (isOneTree(expanded)) {
      framed = await compactDag(expanded);
    } else {
      // The node map holds every node once with its edges forward, however the document nests, splits or
      // reverses them; the tree under the Dag node is nested from it, and compaction then only renames.
      const map = nodeMap(expanded);
      const dropped = unreachedNodes(map, raw, file);
      if (dropped.length > 0) return { canonical: undefined, problems: dropped };
      framed = await compactDag(nestFlattened(map.nodes));
    }
  } catch (error) {
    return { canonical: undefined, problems: [jsonLdProblem(error, raw, file)] };
  }
  const nodes = dagNodes(framed);
  if (nodes.length === 0) {
    return {
      canonical: undefined,
      problems: [
        problem(
          'E_JSONLD',
          `no node of type Dag — give the document's top node "@type": "Dag" (the term of ${CONTEXT_IRI})`,
          { ...where, pointer: '' },
        ),
      ],
    };
  }
  if (nodes.length > 1) {
    const shown = nodes.slice(0, 5).map((n) => clip(String(n['@id'] ?? '(blank node)')));
    const ids = nodes.length > 5 ? `${shown.join(', ')}, …` : shown.join(', ');
    return {
      canonical: undefined,
      problems: [
        problem(
          'E_JSONLD',
          `${nodes.length} nodes of type Dag (${ids}) — put each DAG in a file of its own`,
          // The nodes of a document with several usually stand in its top-level @graph.
          Array.isArray((raw as { '@graph'?: unknown } | null)?.['@graph'])
            ? { ...where, pointer: '/@graph' }
            : { ...where, pointer: '' },
        ),
      ],
    };
  }
  return { canonical: { '@context': CONTEXT_IRI, ...nodes[0] }, problems: [] };
}
