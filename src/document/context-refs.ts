/**
 * Finds every remote context a document refers to, wherever it stands: the top-level `@context`, a context
 * embedded in a node, a term's scoped `@context`, or an `@import`. Only the Switchyard context is served
 * offline, so each other reference is refused with its position before the JSON-LD processor runs.
 */
import { type Problem, problem } from '../errors.ts';
import { isRecord, pointerSegment } from './json.ts';
import { clip, MAX_SCOPED_CONTEXTS } from './limits.ts';
import { CONTEXT_IRI } from './model.ts';

/** What a walk over the contexts of a document found. */
interface Found {
  readonly refs: { url: string; pointer: string }[];
  /** Pointers of the term definitions that carry a scoped context. */
  readonly scoped: string[];
}

/** Every context reference (a URL string) and scoped context inside a context value, with its pointer. */
function contextReferences(context: unknown, at: string, found: Found): void {
  if (typeof context === 'string') {
    found.refs.push({ url: context, pointer: at });
  } else if (Array.isArray(context)) {
    context.forEach((entry, i) => {
      contextReferences(entry, `${at}/${i}`, found);
    });
  } else if (isRecord(context)) {
    const imported = context['@import'];
    if (typeof imported === 'string') found.refs.push({ url: imported, pointer: `${at}/@import` });
    for (const [term, definition] of Object.entries(context)) {
      if (isRecord(definition) && '@context' in definition) {
        found.scoped.push(`${at}/${pointerSegment(term)}`);
        contextReferences(definition['@context'], `${at}/${pointerSegment(term)}/@context`, found);
      }
    }
  }
}

/**
 * One `E_CONTEXT_REFUSED` problem for each context the document refers to other than the Switchyard
 * context, at the pointer where it is written; and one `E_JSONLD` problem when the document defines more
 * than {@link MAX_SCOPED_CONTEXTS} scoped contexts, whose processing grows with the square of their number.
 *
 * @example
 * ```ts
 * refusedContexts({ '@context': ['https://w3id.org/switchyard/context/v1', 'https://x.example/c'] });
 * // [{ code: 'E_CONTEXT_REFUSED', pointer: '/@context/1', … }]
 * ```
 */
export function refusedContexts(raw: unknown, file?: string): Problem[] {
  const found: Found = { refs: [], scoped: [] };
  const stack: { value: unknown; pointer: string }[] = [{ value: raw, pointer: '' }];
  while (stack.length > 0) {
    const { value, pointer } = stack.pop() as { value: unknown; pointer: string };
    if (Array.isArray(value)) {
      value.forEach((inner, i) => {
        stack.push({ value: inner, pointer: `${pointer}/${i}` });
      });
    } else if (isRecord(value)) {
      for (const [key, inner] of Object.entries(value)) {
        if (key === '@context') contextReferences(inner, `${pointer}/@context`, found);
        else stack.push({ value: inner, pointer: `${pointer}/${pointerSegment(key)}` });
      }
    }
  }
  const where = file === undefined ? {} : { file };
  const over = found.scoped.sort()[MAX_SCOPED_CONTEXTS];
  const tooMany =
    over === undefined
      ? []
      : [
          problem(
            'E_JSONLD',
            `${found.scoped.length} terms carry a scoped @context, more than the limit of ${MAX_SCOPED_CONTEXTS} — define the terms once, in the top-level context`,
            { ...where, pointer: over },
          ),
        ];
  const refused = found.refs
    .filter(({ url }) => url !== CONTEXT_IRI)
    .sort((a, b) => (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0))
    .map(({ url, pointer }) =>
      problem(
        'E_CONTEXT_REFUSED',
        `context ${clip(url)} is not served offline: Switchyard only loads its own context (${CONTEXT_IRI}); inline the context instead`,
        { ...where, pointer },
      ),
    );
  return [...refused, ...tooMany];
}
