import type { ChatModel } from '../types.ts';
import { ProviderError, whenAborted } from './provider-error.ts';

/** The ways a flaky call fails, as real providers do. */
export const FAULT_KINDS = ['429', '503', 'reset', 'hang', 'empty', 'json', 'invented'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Options of the fault-injecting wrapper. */
export interface FlakyOptions {
  /** Probability in [0, 1] that each call fails. */
  readonly rate: number;
  /** A seeded source of uniform numbers: the same seed gives the same faults. */
  readonly random: () => number;
  /** Told of each injected fault, in call order. */
  readonly onFault?: (kind: FaultKind, call: number) => void;
}

const INVENTED = [
  'The Glass Orchard" by Mira Castell',
  'A Lantern for the Drowned" by Tobias Wren',
  'The Cartographer of Salt" by Elena Varga',
];

/**
 * Wraps a model so that each call fails with probability `rate`, independently of the calls before it (so
 * the first call of a run fails as often as any other), the way real providers fail: HTTP 429 with
 * `Retry-After: 1`, 503, a connection reset, a call that hangs until its deadline aborts it, an empty
 * answer, a JSON-shaped answer, or an answer naming an invented book.
 * @example
 * const model = createFlakyModel(createOfflineModel(catalog), { rate: 0.5, random: seededRandom(1) });
 */
export function createFlakyModel(inner: ChatModel, options: FlakyOptions): ChatModel {
  let calls = 0;
  return {
    name: `${inner.name}+flaky(${options.rate})`,
    local: inner.local,
    async complete(messages, callOptions) {
      calls += 1;
      const roll = options.random();
      const pick = options.random();
      if (roll >= options.rate) return inner.complete(messages, callOptions);
      const kind = FAULT_KINDS[Math.floor(pick * FAULT_KINDS.length)] ?? 'empty';
      options.onFault?.(kind, calls);
      switch (kind) {
        case '429':
          throw new ProviderError('HTTP 429 Too Many Requests (injected)', {
            status: 429,
            headers: { 'retry-after': '1' },
          });
        case '503':
          throw new ProviderError('HTTP 503 Service Unavailable (injected)', { status: 503 });
        case 'reset':
          throw new ProviderError('socket hang up: connection reset by peer (injected)', {
            code: 'ECONNRESET',
          });
        case 'hang':
          return whenAborted(callOptions.signal);
        case 'empty':
          return '';
        case 'json':
          return JSON.stringify({ answer: await inner.complete(messages, callOptions) });
        case 'invented': {
          const answer = await inner.complete(messages, callOptions);
          return `${answer} Readers also love "${INVENTED[calls % INVENTED.length]}.`;
        }
      }
    },
  };
}
