import OpenAI from 'openai';
import type { ChatModel } from '../types.ts';
import { ProviderError } from './provider-error.ts';
import { DEFAULT_MAX_TOKENS, wantsJson } from './request-shape.ts';

/** Where and how to reach an OpenAI-compatible chat-completions endpoint. */
export interface OpenAIModelOptions {
  /** e.g. `https://api.openai.com/v1` or `http://127.0.0.1:8080/v1`. */
  readonly baseURL: string;
  readonly apiKey: string;
  readonly model: string;
  /** The cap on the tokens of one answer, sent as `max_tokens`; default {@link DEFAULT_MAX_TOKENS}. */
  readonly maxTokens?: number;
}

function headersOf(headers: Headers | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  headers?.forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

function networkCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Maps the client's errors to provider errors that carry status, Retry-After and network codes. */
function mapError(error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted) return signal.reason ?? error;
  if (error instanceof OpenAI.APIUserAbortError) return error;
  if (error instanceof OpenAI.APIConnectionError) {
    const code = networkCode(error) ?? 'ECONNRESET';
    return new ProviderError(`connection to the model failed (${code})`, { code, cause: error });
  }
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    return new ProviderError(`HTTP ${error.status} from the model: ${error.message}`, {
      status: error.status,
      headers: headersOf(error.headers),
      cause: error,
    });
  }
  return error;
}

/**
 * A model behind any OpenAI-compatible chat-completions endpoint. The client's own retries are off:
 * retries are routes of the DAG, timed by its policy. Every request carries `max_tokens`; the
 * classification, which is read as one JSON object, asks for `response_format: json_object`.
 * @example
 * const model = createOpenAIModel({ baseURL: 'http://127.0.0.1:8080/v1', apiKey, model: 'gpt-4o-mini' });
 */
export function createOpenAIModel(options: OpenAIModelOptions): ChatModel {
  const client = new OpenAI({ baseURL: options.baseURL, apiKey: options.apiKey, maxRetries: 0 });
  return {
    name: `openai:${options.model}`,
    local: false,
    async complete(messages, { signal }) {
      try {
        const response = await client.chat.completions.create(
          {
            model: options.model,
            messages: messages.map((m) => ({ role: m.role, content: m.content })),
            max_tokens: options.maxTokens ?? DEFAULT_MAX_TOKENS,
            ...(wantsJson(messages) ? { response_format: { type: 'json_object' as const } } : {}),
          },
          { signal },
        );
        return response.choices[0]?.message.content ?? '';
      } catch (error) {
        throw mapError(error, signal);
      }
    },
  };
}
