/**
 * An error from a model provider, shaped the way the engine's error classification reads it: an HTTP
 * `status`, response `headers` (with `retry-after`), or a network `code` such as ECONNRESET.
 */
export class ProviderError extends Error {
  readonly status?: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly code?: string;

  constructor(
    message: string,
    options: { status?: number; headers?: Record<string, string>; code?: string; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProviderError';
    if (options.status !== undefined) this.status = options.status;
    if (options.code !== undefined) this.code = options.code;
    this.headers = options.headers ?? {};
  }
}

/** Rejects with the signal's reason, or an AbortError, once `signal` aborts (at once if it already has). */
export function whenAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fail = () => reject(signal.reason ?? new DOMException('The operation was aborted', 'AbortError'));
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
}
