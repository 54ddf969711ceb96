import { Ollama } from 'ollama';
import type { ChatModel } from '../types.ts';
import { ProviderError } from './provider-error.ts';
import { DEFAULT_MAX_TOKENS, wantsJson } from './request-shape.ts';

/** The Ollama server used when neither --base-url nor OLLAMA_HOST names one. */
export const DEFAULT_OLLAMA_HOST = 'http://127.0.0.1:11434';

/** Where to reach Ollama and which model to ask. */
export interface OllamaModelOptions {
  readonly host: string;
  readonly model: string;
  /** The cap on the tokens of one answer, sent as `num_predict`; default {@link DEFAULT_MAX_TOKENS}. */
  readonly maxTokens?: number;
}

/**
 * A model served by Ollama (`ollama serve`). Each call gets its own client so that the node's signal
 * aborts exactly that request. Every request caps the answer's tokens (`num_predict`); the classification,
 * which is read as one JSON object, asks for `format: "json"`.
 * @example
 * const model = createOllamaModel({ host: DEFAULT_OLLAMA_HOST, model: 'llama3.2' });
 */
export function createOllamaModel(options: OllamaModelOptions): ChatModel {
  return {
    name: `ollama:${options.model}`,
    local: false,
    async complete(messages, { signal }) {
      const client = new Ollama({
        host: options.host,
        fetch: (input, init) => fetch(input, { ...init, signal }),
      });
      try {
        const response = await client.chat({
          model: options.model,
          messages: [...messages],
          stream: false,
          options: { num_predict: options.maxTokens ?? DEFAULT_MAX_TOKENS },
          ...(wantsJson(messages) ? { format: 'json' } : {}),
        });
        return response.message.content;
      } catch (error) {
        if (signal.aborted) throw signal.reason ?? error;
        const status = (error as { status_code?: unknown }).status_code;
        if (typeof status === 'number') {
          throw new ProviderError(`HTTP ${status} from Ollama: ${(error as Error).message}`, {
            status,
            cause: error,
          });
        }
        const code = (error as { cause?: { code?: unknown } }).cause?.code;
        if (typeof code === 'string') {
          throw new ProviderError(`connection to Ollama failed (${code})`, { code, cause: error });
        }
        throw error;
      }
    },
  };
}
