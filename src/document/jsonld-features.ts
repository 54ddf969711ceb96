import { isRecord } from './json.ts';

/**
 * Whether a document with the canonical context uses JSON-LD beyond what the schema describes: typed or
 * tagged literals, `@list`/`@set` objects, node references, keywords, compact or absolute IRIs as keys,
 * `@type` as an array or an IRI, a null value, a context below the top node, or a single value where a set or list is written as an array. Only such a document
 * can mean a valid DAG although the schema refuses it, so only it is worth the JSON-LD processor's time.
 */

/** Terms whose values the canonical form writes as arrays. */
const ARRAY_TERMS = new Set([
  'entrypoints',
  'budgets',
  'placements',
  'routes',
  'input',
  'result',
  'resets',
  'answers',
]);

const VALUE_KEYWORDS = ['@value', '@id', '@list', '@set', '@language', '@direction', '@included', '@reverse'];

/**
 * True when `raw` uses any JSON-LD feature the canonical compact form does not (see the module comment).
 *
 * @example
 * ```ts
 * usesJsonLdFeatures({ '@context': CONTEXT_IRI, '@type': ['Dag'] }); // true
 * ```
 */
export function usesJsonLdFeatures(raw: unknown): boolean {
  const stack: { value: unknown; top: boolean }[] = [{ value: raw, top: true }];
  while (stack.length > 0) {
    const { value, top } = stack.pop() as { value: unknown; top: boolean };
    if (Array.isArray(value)) {
      for (const inner of value) stack.push({ value: inner, top: false });
      continue;
    }
    if (!isRecord(value)) continue;
    for (const [key, inner] of Object.entries(value)) {
      // A context of the top node is the canonical one; a context further in may change what terms mean.
      if (key === '@context') {
        if (!top) return true;
        continue;
      }
      if (key === '@type' ? inner !== 'Dag' : key === '@id' ? !top : key.startsWith('@')) return true;
      // null stands for no value: the same graph as the property left out.
      if (inner === null) return true;
      if (key.includes(':')) return true;
      if (ARRAY_TERMS.has(key) && !Array.isArray(inner)) return true;
      if (isRecord(inner) && VALUE_KEYWORDS.some((k) => k in inner)) return true;
      stack.push({ value: inner, top: false });
    }
  }
  return false;
}
