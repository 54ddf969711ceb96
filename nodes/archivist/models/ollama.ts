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

function headersOf(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

/**
 * The provider error of a response that is not ok, with its status and headers (a Retry-After included),
 * which the client's own error drops; its message is the body's `error`, else the body, else the status.
 */
async function refusal(response: Response): Promise<ProviderError> {
  const text = await response.text().catch(() => '');
  let message = text.trim();
  try {
    const error = (JSON.parse(text) as { error?: unknown }).error;
    if (typeof error === 'string' && error !== '') message = error;
  } catch {}
  if (message === '') message = `Error ${response.status}: ${response.statusText}`;
  return new ProviderError(`HTTP ${response.status} from Ollama: ${message}`, {
    status: response.status,
    headers: headersOf(response.headers),
  });
}

/**
 * A model served by Ollama (`ollama serve`). Each call gets its own client so that the node's signal
 * aborts exactly that request. A response that is not ok is an error carrying its status and headers, so
 * that a 429's Retry-After is honoured and closes the policy's gate, as with the OpenAI client. Every request caps the answer's tokens (`num_predict`); the classification,
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
        fetch: async (input, init) => {
          const response = await fetch(input, { ...init, signal });
          if (!response.ok) throw await refusal(response);
          return response;
        },
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
        if (error instanceof ProviderError) throw error;
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
