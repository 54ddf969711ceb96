/**
 * The offline JSON-LD document loader: serves the published Switchyard context from `schemas/` and refuses
 * every other URL, so no JSON-LD operation ever touches the network.
 */
import { readFileSync } from 'node:fs';
import { SwitchyardError } from '../errors.ts';
import { CONTEXT_IRI } from './model.ts';

/** What a jsonld document loader returns, as jsonld.js expects it. */
export interface RemoteDocument {
  readonly contextUrl: null;
  readonly documentUrl: string;
  readonly document: object;
}

const CONTEXT_FILE = new URL('../../schemas/context.v1.jsonld', import.meta.url);

let cachedContext: object | undefined;

/** The parsed `schemas/context.v1.jsonld` document (read once, then cached). */
export function contextDocument(): object {
  cachedContext ??= JSON.parse(readFileSync(CONTEXT_FILE, 'utf8')) as object;
  return cachedContext;
}

/**
 * A jsonld `documentLoader` that serves {@link CONTEXT_IRI} from the local file and refuses any other URL
 * with `E_CONTEXT_REFUSED`.
 *
 * @example
 * ```ts
 * import jsonld from 'jsonld';
 * const expanded = await jsonld.expand(doc, { documentLoader });
 * ```
 */
export async function documentLoader(url: string): Promise<RemoteDocument> {
  if (url === CONTEXT_IRI) {
    return { contextUrl: null, documentUrl: url, document: contextDocument() };
  }
  throw new SwitchyardError(
    'E_CONTEXT_REFUSED',
    `context ${url} is not served offline: Switchyard only loads its own context (${CONTEXT_IRI}); inline the context instead`,
  );
}
