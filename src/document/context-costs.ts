/**
 * What the contexts of a document define (terms, aliases of `@type`, terms with a scoped context), and what
 * processing one context costs jsonld.js, in units of one term definition processed or copied. Used by
 * {@link expansionWork} to bound the processor's work before it runs.
 */

import { isRecord, pointerSegment } from './json.ts';
import { CONTEXT_IRI } from './model.ts';

/** Terms of the Switchyard context, counted for each reference to it. */
export const SWITCHYARD_TERMS = 32;

/** The fixed part of processing one context (resolving it, capturing its events): measured at about 64 units. */
export const PER_PROCESSING = 64;

/** The fixed part of finding a processed context in the cache. */
const PER_LOOKUP = 16;

/** A term with a scoped context: the context, its text (what the processor caches it by), where it is defined. */
export interface ScopedTerm {
  readonly context: unknown;
  readonly text: string;
  readonly pointer: string;
}

/** What the contexts of a document define, anywhere in it. */
export interface Definitions {
  /** Every term defined (an upper bound on the size of any active context, with the Switchyard terms). */
  readonly terms: ReadonlySet<string>;
  /** Terms that stand for `@type`, and `@type` itself. */
  readonly typeKeys: ReadonlySet<string>;
  readonly scoped: ReadonlyMap<string, ScopedTerm>;
  /** Terms whose values are maps keyed by type (`"@container": "@type"`). */
  readonly typeMaps: ReadonlySet<string>;
}

/** The entries of a context value: an array's items, or the value itself. */
export function contextEntries(context: unknown): unknown[] {
  return Array.isArray(context) ? context : [context];
}

/** Every context in `raw` (embedded and scoped, at any depth) and what it defines. One iterative pass. */
export function collectDefinitions(raw: unknown): Definitions {
  const terms = new Set<string>();
  const typeKeys = new Set(['@type']);
  const scoped = new Map<string, ScopedTerm>();
  const typeMaps = new Set<string>();
  const contexts: { context: unknown; pointer: string }[] = [];
  const stack: { value: unknown; pointer: string }[] = [{ value: raw, pointer: '' }];
  while (stack.length > 0) {
    const { value, pointer } = stack.pop() as { value: unknown; pointer: string };
    // Only objects and arrays can hold a context: other values are not visited.
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const inner = value[i];
        if (inner !== null && typeof inner === 'object')
          stack.push({ value: inner, pointer: `${pointer}/${i}` });
      }
    } else if (isRecord(value)) {
      for (const [key, inner] of Object.entries(value)) {
        if (key === '@context') contexts.push({ context: inner, pointer: `${pointer}/@context` });
        else if (inner !== null && typeof inner === 'object') {
          stack.push({ value: inner, pointer: `${pointer}/${pointerSegment(key)}` });
        }
      }
    }
  }
  while (contexts.length > 0) {
    const { context, pointer } = contexts.pop() as { context: unknown; pointer: string };
    const entries = contextEntries(context);
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i];
      if (!isRecord(entry)) continue;
      const base = Array.isArray(context) ? `${pointer}/${i}` : pointer;
      for (const [term, definition] of Object.entries(entry)) {
        if (term.startsWith('@')) continue;
        terms.add(term);
        const id = isRecord(definition) ? definition['@id'] : definition;
        if (id === '@type') typeKeys.add(term);
        if (isRecord(definition) && contextEntries(definition['@container']).includes('@type'))
          typeMaps.add(term);
        if (isRecord(definition) && Object.hasOwn(definition, '@context')) {
          const at = `${base}/${pointerSegment(term)}`;
          const inner = definition['@context'];
          if (!scoped.has(term))
            scoped.set(term, { context: inner, text: JSON.stringify(inner), pointer: at });
          contexts.push({ context: inner, pointer: `${at}/@context` });
        }
      }
    }
  }
  return { terms, typeKeys, scoped, typeMaps };
}

/** The costs of processing the contexts of one document, given the bound on its active contexts. */
export interface ContextCosts {
  /** Processing `context` over an active context it is not cached for. */
  processing(context: unknown): number;
  /** Processing `context` where the processor has it cached: its text is still written out to look it up. */
  cached(context: unknown): number;
  /** Copying the largest active context once. */
  readonly copy: number;
}

/**
 * The costs for a document whose active contexts hold at most `activeTerms` terms: a processing copies
 * the active context twice, defines each of its terms, and checks each scoped context in it by processing
 * it over one more copy.
 */
export function contextCosts(activeTerms: number): ContextCosts {
  const full = new Map<object, number>();
  const size = new Map<object, number>();
  const processing = (context: unknown): number => {
    if (typeof context === 'string') {
      return PER_PROCESSING + 2 * activeTerms + (context === CONTEXT_IRI ? SWITCHYARD_TERMS : 1);
    }
    if (Array.isArray(context)) return context.reduce((sum: number, c) => sum + processing(c), 0);
    if (!isRecord(context)) return PER_PROCESSING;
    const known = full.get(context);
    if (known !== undefined) return known;
    let cost = PER_PROCESSING + 2 * activeTerms;
    for (const [key, definition] of Object.entries(context)) {
      cost += key === '@import' ? SWITCHYARD_TERMS : 1;
      if (isRecord(definition) && Object.hasOwn(definition, '@context')) {
        cost += activeTerms + processing(definition['@context']);
      }
    }
    full.set(context, cost);
    return cost;
  };
  // The text of a context is written out to look it up: one unit per entry, scoped contexts included.
  const entries = (context: unknown): number => {
    if (Array.isArray(context)) return context.reduce((sum: number, c) => sum + entries(c), 0);
    if (!isRecord(context)) return 1;
    const known = size.get(context);
    if (known !== undefined) return known;
    let cost = 1;
    for (const definition of Object.values(context)) {
      cost += 1;
      if (isRecord(definition) && Object.hasOwn(definition, '@context'))
        cost += entries(definition['@context']);
    }
    size.set(context, cost);
    return cost;
  };
  const cached = (context: unknown): number => PER_LOOKUP + entries(context);
  return { processing, cached, copy: activeTerms };
}
