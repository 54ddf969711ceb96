/**
 * Writes each `"@import"` of the Switchyard context out in place, before the JSON-LD processor sees the
 * document. jsonld.js stores the merged context of an `@import` in its process-wide cache as if it were the
 * processed imported context, so after one such document every later use of that context in the process
 * fails. Merging here (the imported context's entries, then the importing context's own over them, which
 * is what `@import` means) gives the processor the same context without an `@import`. Other imports are
 * refused before this runs (`refusedContexts`).
 */
import { contextDocument } from './context-loader.ts';
import { isRecord } from './json.ts';
import { CONTEXT_IRI } from './model.ts';

type Json = Record<string, unknown>;

/** True when some object of `value` has an `@import` entry. */
function hasImport(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (Array.isArray(current)) for (const inner of current) stack.push(inner);
    else if (isRecord(current)) {
      if (Object.hasOwn(current, '@import')) return true;
      for (const inner of Object.values(current)) stack.push(inner);
    }
  }
  return false;
}

/** A context value (object, array or reference) with its imports of the Switchyard context merged in. */
function inlineContext(context: unknown): unknown {
  if (Array.isArray(context)) return context.map(inlineContext);
  if (!isRecord(context)) return context;
  let out: Json = context;
  if (context['@import'] === CONTEXT_IRI) {
    const { '@import': _import, ...own } = context;
    const imported = (contextDocument() as Json)['@context'] as Json;
    out = { ...imported, ...own };
  }
  // Scoped contexts of term definitions may import too.
  for (const [term, definition] of Object.entries(out)) {
    if (isRecord(definition) && Object.hasOwn(definition, '@context')) {
      out = { ...out, [term]: { ...definition, '@context': inlineContext(definition['@context']) } };
    }
  }
  return out;
}

/**
 * `raw` itself when it imports nothing, else a copy with every import of the Switchyard context merged in.
 *
 * @example
 * ```ts
 * const expanded = await expand(inlineImports(raw));
 * ```
 */
export function inlineImports(raw: unknown): unknown {
  if (!hasImport(raw)) return raw;
  const copy = structuredClone(raw);
  const stack: unknown[] = [copy];
  while (stack.length > 0) {
    const current = stack.pop();
    if (Array.isArray(current)) for (const inner of current) stack.push(inner);
    else if (isRecord(current)) {
      for (const [key, inner] of Object.entries(current)) {
        if (key === '@context') current[key] = inlineContext(inner);
        else stack.push(inner);
      }
    }
  }
  return copy;
}
