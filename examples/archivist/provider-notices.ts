/**
 * The lines the Archivist prints on standard error about its model provider: a refusal of the key or the
 * model (once per process), and each wait a rate limit imposes.
 */
import type { ProviderError } from '../../nodes/archivist/models/provider-error.ts';
import type { RunEvent } from '../../src/runtime/events.ts';

/** What a refusal line names: the provider, the model, where it was reached and the key's variable. */
export interface ProviderContext {
  readonly llm: 'openai' | 'ollama';
  readonly model: string;
  /** The base URL or host. */
  readonly where: string;
  /** The environment variable the API key came from (openai). */
  readonly keyVar?: string;
}

const FALLBACK = 'answers come from the catalog without the model';

/** One line saying which provider refused what, with which status, and what to fix. */
export function refusalLine(error: ProviderError, provider: ProviderContext): string {
  const status = error.status ?? 0;
  const name = provider.llm === 'openai' ? 'openai' : 'Ollama';
  const head = `archivist: ${name} at ${provider.where} answered HTTP ${status}`;
  if (provider.llm === 'ollama') {
    if (status === 404) {
      return `${head}: it has no model '${provider.model}'; run \`ollama pull ${provider.model}\` or pass --model (${FALLBACK})`;
    }
    return `${head}: it refused the request; check the server's access settings (${FALLBACK})`;
  }
  const keyVar = provider.keyVar ?? 'OPENAI_API_KEY';
  switch (status) {
    case 401:
      return `${head}: the API key in ${keyVar} was refused; set a valid key (${FALLBACK})`;
    case 403:
      return `${head}: the API key in ${keyVar} may not use model '${provider.model}'; use a key with access or another --model (${FALLBACK})`;
    default:
      return `${head}: it does not know model '${provider.model}'; check --model, and that --base-url ends in /v1 (${FALLBACK})`;
  }
}

/**
 * The provider part of a model's name: `openai` for `openai:gpt-4o-mini`; a simulated provider says which
 * flags simulate it, `offline (--flaky)` for `offline+flaky(0.3)`, `offline (--flaky, --rate-limit)` for
 * `offline+flaky(0.3)+limit(2/1s)`.
 */
export function providerOf(modelName: string): string {
  const provider = modelName.split(/[:+]/)[0] ?? modelName;
  const flags = [
    ...(modelName.includes('+flaky(') ? ['--flaky'] : []),
    ...(modelName.includes('+limit(') ? ['--rate-limit'] : []),
  ];
  return flags.length > 0 ? `${provider} (${flags.join(', ')})` : provider;
}

/**
 * The notice for a retry that waits as the provider asked (Retry-After), e.g. `archivist: rate-limited
 * by openai, retrying in 12 s`, and for a call that waits at a gate a rate limit closed, e.g. `archivist:
 * rate-limited by openai, compose waits at gate model`; undefined for every other event.
 */
export function waitNotice(event: RunEvent, modelName: string): string | undefined {
  if (event.type === 'gate.wait' && event.why === 'closed') {
    return `archivist: rate-limited by ${providerOf(modelName)}, ${event.placement} waits at gate ${event.key}`;
  }
  if (event.type !== 'retry.scheduled' || event.delaySource !== 'retry-after') return undefined;
  const seconds = Math.max(1, Math.round(event.delayMs / 1000));
  const provider = providerOf(modelName);
  const status = /\bHTTP (\d{3})\b/.exec(event.reason ?? '')?.[1];
  const what =
    status === '429'
      ? `rate-limited by ${provider}`
      : `${provider} is busy${status ? ` (HTTP ${status})` : ''}`;
  return `archivist: ${what}, retrying in ${seconds} s`;
}
