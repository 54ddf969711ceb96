import type { ChatModel } from '../types.ts';
import { ProviderError } from './provider-error.ts';

/**
 * The HTTP statuses by which a provider refuses every request of this process alike: a bad API key (401),
 * a key without access (403), an unknown model or endpoint (404). Asking again cannot help.
 */
export const REFUSAL_STATUSES: ReadonlySet<number> = new Set([401, 403, 404]);

/** True for a provider error that refuses the key or the model. */
export function isRefusal(error: unknown): error is ProviderError {
  return error instanceof ProviderError && error.status !== undefined && REFUSAL_STATUSES.has(error.status);
}

/**
 * Wraps a provider's model so that a refusal is heard once: the first refused call tells `onRefused`, and
 * every later call fails at once with the same error, without another request (the answer then comes
 * from the DAG's salvage routes, from the catalog).
 * @example
 * const model = guardRefusals(createOpenAIModel(options), (error) => warnings.push(error.status));
 */
export function guardRefusals(inner: ChatModel, onRefused: (error: ProviderError) => void): ChatModel {
  let refused: ProviderError | undefined;
  return {
    name: inner.name,
    local: inner.local,
    async complete(messages, options) {
      if (refused) throw refused;
      try {
        return await inner.complete(messages, options);
      } catch (error) {
        if (isRefusal(error) && !refused) {
          refused = error;
          onRefused(error);
        }
        throw error;
      }
    },
  };
}
