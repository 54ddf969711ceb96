/**
 * A typed facade over jsonld.js that always uses the offline loader and safe mode, so a lossy document
 * (a term the context does not define) fails instead of silently losing data. jsonld.js is loaded on the
 * first call: documents in the canonical form, and commands that never normalise, do not pay for it.
 */
import { isSwitchyardError, type SwitchyardError } from '../errors.ts';
import { documentLoader } from './context-loader.ts';
import { CONTEXT_IRI } from './model.ts';

interface JsonLdOptions {
  readonly documentLoader: typeof documentLoader;
  readonly safe: boolean;
  readonly base?: string | null;
  readonly algorithm?: 'RDFC-1.0';
  readonly format?: 'application/n-quads';
  readonly compactToRelative?: boolean;
}

// The published @types/jsonld lag behind jsonld 9 (no `safe`, no RDFC-1.0), so the calls used here are typed locally.
interface JsonLdProcessor {
  expand(input: unknown, options: JsonLdOptions): Promise<unknown[]>;
  compact(input: unknown, context: unknown, options: JsonLdOptions): Promise<Record<string, unknown>>;
  frame(input: unknown, frame: unknown, options: JsonLdOptions): Promise<Record<string, unknown>>;
  canonize(input: unknown, options: JsonLdOptions): Promise<string>;
}

let loading: Promise<JsonLdProcessor> | undefined;

/** jsonld.js, imported once on first use. */
function processor(): Promise<JsonLdProcessor> {
  loading ??= import('jsonld').then((module) => module.default as unknown as JsonLdProcessor);
  return loading;
}

const common: JsonLdOptions = { documentLoader, safe: true, base: null };

/** Expands a document with the offline loader in safe mode. */
export async function expand(input: unknown): Promise<unknown[]> {
  return (await processor()).expand(input, common);
}

/**
 * Compacts an expanded document holding one node tree with the Switchyard context. Safe mode is not needed
 * here: expansion (in safe mode) already refused anything lossy, and compaction only renames.
 */
export async function compactDag(expanded: unknown): Promise<Record<string, unknown>> {
  return (await processor()).compact(expanded, CONTEXT_IRI, {
    documentLoader,
    safe: false,
    base: null,
    compactToRelative: false,
  });
}

/** The RDFC-1.0 canonical N-Quads of a document. */
export async function canonize(input: unknown): Promise<string> {
  return (await processor()).canonize(input, {
    ...common,
    algorithm: 'RDFC-1.0',
    format: 'application/n-quads',
  });
}

/** A jsonld.js safe-mode failure: the event that made the processor refuse, when there is one. */
export interface SafeModeEvent {
  readonly code: string;
  readonly message: string;
  readonly details: Record<string, unknown>;
}

/** The safe-mode event inside a jsonld.js error, if the error is a safe-mode validation error. */
export function safeModeEvent(error: unknown): SafeModeEvent | undefined {
  const details = (error as { details?: { event?: Partial<SafeModeEvent> } } | undefined)?.details;
  const event = details?.event;
  if (!event || typeof event.code !== 'string') return undefined;
  return { code: event.code, message: String(event.message ?? ''), details: event.details ?? {} };
}

/** The SwitchyardError somewhere in a jsonld.js error's cause chain (e.g. a refused context), if any. */
export function switchyardCause(error: unknown): SwitchyardError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    if (isSwitchyardError(current)) return current;
    const holder = current as { details?: { cause?: unknown }; cause?: unknown };
    current = holder.details?.cause ?? holder.cause;
  }
  return undefined;
}

/** A jsonld.js error's message on one line. */
export function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, ' ').trim();
}
