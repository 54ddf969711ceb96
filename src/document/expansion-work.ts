/**
 * An upper estimate of the work JSON-LD expansion does on a document's contexts, in one linear pass before
 * the processor runs. The processor's work is linear in the document except where a context is processed
 * again and again, each time over a copy of the whole active context: a scoped context at every use of its
 * term as a property (twice: for the key, then for each value) or as a type, an embedded context at every
 * node that writes it. So a short document can demand minutes: one type-scoped context of 1,000 terms over
 * 20,000 nodes is 20 million term definitions. The walk follows what jsonld.js does at each node (a
 * property's scoped context, then the node's own context, then its types' contexts, then its properties),
 * numbering the active contexts it would hold. Where jsonld.js would find a processing in its cache (the
 * same context over the same active context, among the last ten it kept for that context, and never below
 * a type's context, which is copied afresh at each node), only the writing out of the context's text is
 * counted.
 */
import { collectDefinitions, contextCosts, contextEntries, SWITCHYARD_TERMS } from './context-costs.ts';
import { isRecord, pointerSegment } from './json.ts';
import { clip } from './limits.ts';

/** The estimate, and where the context is written that most of it comes from. */
export interface ExpansionWork {
  /** Term definitions the processor would process or copy, at least; counting stops once past `bound`. */
  readonly units: number;
  /** Pointer of the costliest context: a scoped term's definition, or an embedded `@context`. */
  readonly pointer: string;
  /** What that context is, for a message: `the scoped context of term 'T'` or `the context at /x`. */
  readonly what: string;
}

/** How many active contexts jsonld.js keeps a processed context for (`MAX_ACTIVE_CONTEXTS`). */
const CACHED_PER_CONTEXT = 10;

/** Where a context is written, and what to call it in a message. */
interface Source {
  readonly pointer: string;
  readonly what: () => string;
}

/** One value to expand: the active context it is expanded over, and the property it is the value of. */
interface Pending {
  readonly value: unknown;
  readonly pointer: string;
  readonly key: number;
  readonly property: string | undefined;
  /** Below a type's context: every active context is a fresh copy, so nothing is found cached. */
  readonly fresh: boolean;
  /** The node is a map keyed by type: each key's scoped context is a type's, over a fresh copy. */
  readonly typeMap: boolean;
}

/**
 * The estimated work of expanding `raw`, counted until it passes `bound`.
 *
 * @example
 * ```ts
 * const work = expansionWork(raw, MAX_EXPANSION_WORK);
 * if (work.units > MAX_EXPANSION_WORK) console.error(`${work.what} costs too much`);
 * ```
 */
export function expansionWork(raw: unknown, bound = Number.POSITIVE_INFINITY): ExpansionWork {
  const { terms, typeKeys, scoped, typeMaps } = collectDefinitions(raw);
  const costs = contextCosts(terms.size + SWITCHYARD_TERMS);

  let units = 0;
  let most = 0;
  let costliest = { pointer: '', what: '' };
  const bySource = new Map<string, number>();
  const charge = (cost: number, pointer: string, what: () => string) => {
    units += cost;
    const total = (bySource.get(pointer) ?? 0) + cost;
    bySource.set(pointer, total);
    if (total > most) {
      most = total;
      costliest = { pointer, what: what() };
    }
  };

  // Active contexts are numbered; the same number stands for the same object in the processor.
  let next = 1;
  const numbers = new Map<string, number>();
  const numberOf = (from: number, text: string) => {
    const pair = `${from} ${text}`;
    let key = numbers.get(pair);
    if (key === undefined) {
      key = next++;
      numbers.set(pair, key);
    }
    return key;
  };
  // The active contexts each context text is cached for, most recent first.
  const cache = new Map<string, number[]>();
  const isCached = (text: string, key: number): boolean => {
    let keys = cache.get(text);
    if (!keys) {
      keys = [];
      cache.set(text, keys);
    }
    const at = keys.indexOf(key);
    if (at >= 0) keys.splice(at, 1);
    keys.unshift(key);
    if (keys.length > CACHED_PER_CONTEXT) keys.pop();
    return at >= 0;
  };
  /** Processes `context` (written as `text`) over the active context `key`; returns the resulting one. */
  const apply = (context: unknown, text: string, key: number, fresh: boolean, source: Source) => {
    const hit = !fresh && isCached(text, key);
    charge(hit ? costs.cached(context) : costs.processing(context), source.pointer, source.what);
    return fresh ? next++ : numberOf(key, text);
  };
  const scopedSource = (term: string): Source => ({
    pointer: scoped.get(term)?.pointer ?? '',
    what: () => `the scoped context of term '${clip(term)}'`,
  });

  const stack: Pending[] = [
    { value: raw, pointer: '', key: 0, property: undefined, fresh: false, typeMap: false },
  ];
  while (stack.length > 0 && units <= bound) {
    const item = stack.pop() as Pending;
    const { value, pointer } = item;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        const inner = value[i];
        // A string or a number is expanded without a context of its own.
        if (inner !== null && typeof inner === 'object') {
          stack.push({ ...item, value: inner, pointer: `${pointer}/${i}` });
        }
      }
      continue;
    }
    if (!isRecord(value)) continue;
    let { key, fresh } = item;
    // The scoped context of the property this node is a value of, again over the node's active context.
    const byProperty = item.property === undefined ? undefined : scoped.get(item.property);
    if (byProperty && item.property !== undefined) {
      key = apply(byProperty.context, byProperty.text, key, fresh, scopedSource(item.property));
    }
    // The node's own context, entry by entry.
    if (Object.hasOwn(value, '@context')) {
      const at = `${pointer}/@context`;
      const own: Source = { pointer: at, what: () => `the context at ${clip(at)}` };
      for (const entry of contextEntries(value['@context'])) {
        const text = typeof entry === 'string' ? entry : JSON.stringify(entry);
        if (isRecord(entry) && entry['@propagate'] === false) {
          // Not propagated: processed over a fresh copy, and everything below is copied afresh too.
          charge(costs.copy, at, own.what);
          fresh = true;
        }
        key = apply(entry, text, key, fresh, own);
      }
    }
    // The contexts of its types, each over a fresh copy.
    for (const [name, types] of Object.entries(value)) {
      if (!typeKeys.has(name)) continue;
      for (const type of contextEntries(types)) {
        const definition = typeof type === 'string' ? scoped.get(type) : undefined;
        if (!definition) continue;
        charge(costs.copy, definition.pointer, scopedSource(String(type)).what);
        fresh = true;
        key = apply(definition.context, definition.text, key, fresh, scopedSource(String(type)));
      }
    }
    // Its properties: one with a scoped context is processed for the key, then for each value. In a map
    // keyed by type, a key's context is a type's: over a fresh copy, for everything below it.
    for (const [name, inner] of Object.entries(value)) {
      if (name === '@context') continue;
      const definition = scoped.get(name);
      let termKey = key;
      let below = fresh;
      if (definition && item.typeMap) {
        charge(costs.copy, definition.pointer, scopedSource(name).what);
        below = true;
      }
      if (definition) termKey = apply(definition.context, definition.text, key, below, scopedSource(name));
      if (inner === null || typeof inner !== 'object') continue;
      stack.push({
        value: inner,
        pointer: `${pointer}/${pointerSegment(name)}`,
        key: termKey,
        property: definition ? name : undefined,
        fresh: below,
        typeMap: typeMaps.has(name),
      });
    }
  }
  return { units, ...costliest };
}
