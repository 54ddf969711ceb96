import type { Catalog } from '../../nodes/archivist/catalog.ts';
import { createFlakyModel } from '../../nodes/archivist/models/flaky.ts';
import { createOfflineModel } from '../../nodes/archivist/models/offline.ts';
import { createRateLimitedModel } from '../../nodes/archivist/models/rate-limited.ts';
import { guardRefusals } from '../../nodes/archivist/models/refusal.ts';
import type { ChatModel } from '../../nodes/archivist/types.ts';
import { SwitchyardError } from '../../src/errors.ts';
import { importOptional } from '../../src/optional-import.ts';
import { seededRandom } from '../../src/policy/random.ts';
import type { Clock } from '../../src/policy/types.ts';
import { type ProviderContext, refusalLine } from './provider-notices.ts';

/** The model options of the command line. */
export interface ModelOptions {
  readonly llm: string;
  readonly baseUrl?: string;
  readonly model?: string;
  readonly apiKeyEnv?: string;
  /** Share of failing calls, 0–1; 0 or undefined for none. */
  readonly flaky?: number;
  /**
   * A simulated provider's shared rate limit, in model requests per second: past it a call is answered 429
   * with Retry-After; undefined for none.
   */
  readonly rateLimit?: number;
  readonly seed: number;
  /** The cap on the tokens of one model answer; default the models' own (600). */
  readonly maxTokens?: number;
  /**
   * Told once, with one line naming the provider, the status and what to fix, when the provider refuses
   * the API key or the model (HTTP 401, 403, 404); later calls then fail at once, without a request.
   */
  readonly onRefused?: (line: string) => void;
}

/** The models `--llm` accepts. */
export const LLMS = ['offline', 'openai', 'ollama'] as const;

const DEFAULT_OPENAI_URL = 'https://api.openai.com/v1';
const DEFAULT_OPENAI_MODEL = 'gpt-4o-mini';
const DEFAULT_OLLAMA_MODEL = 'llama3.2';

// The model clients are optional peer dependencies: each is loaded only when its --llm is chosen.
const loadOpenAI = () =>
  importOptional(
    { name: 'openai', neededFor: '--llm openai', without: 'or answer offline (--llm offline)' },
    () => import('../../nodes/archivist/models/openai.ts'),
  );
const loadOllama = () =>
  importOptional(
    { name: 'ollama', neededFor: '--llm ollama', without: 'or answer offline (--llm offline)' },
    () => import('../../nodes/archivist/models/ollama.ts'),
  );

// The reachability probe opens a socket (node:net): loaded only for the models that talk to a server.
const reachable = async (url: string): Promise<boolean> => (await import('./reachable.ts')).isReachable(url);

function usage(message: string): SwitchyardError {
  return new SwitchyardError('E_USAGE', message);
}

function maxTokensOf(options: ModelOptions): { maxTokens?: number } {
  return options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens };
}

/** The provider's model, whose refusal of the key or the model is told once, as one line. */
function guarded(model: ChatModel, provider: ProviderContext, options: ModelOptions): ChatModel {
  return guardRefusals(model, (error) => options.onRefused?.(refusalLine(error, provider)));
}

async function openai(
  options: ModelOptions,
  env: Readonly<Record<string, string | undefined>>,
): Promise<ChatModel> {
  const { createOpenAIModel } = await loadOpenAI();
  const keyVar = options.apiKeyEnv ?? 'OPENAI_API_KEY';
  const apiKey = env[keyVar];
  if (!apiKey) {
    throw usage(
      `no API key: set ${keyVar}${options.apiKeyEnv ? '' : ' (or name another variable with --api-key-env)'}`,
    );
  }
  const baseURL = options.baseUrl ?? env.OPENAI_BASE_URL ?? DEFAULT_OPENAI_URL;
  if (!(await reachable(baseURL))) {
    throw usage(
      `cannot reach the chat-completions endpoint at ${baseURL}: check --base-url and that the server is running`,
    );
  }
  const model = options.model ?? env.OPENAI_MODEL ?? DEFAULT_OPENAI_MODEL;
  return guarded(
    createOpenAIModel({ baseURL, apiKey, model, ...maxTokensOf(options) }),
    { llm: 'openai', model, where: baseURL, keyVar },
    options,
  );
}

async function ollama(
  options: ModelOptions,
  env: Readonly<Record<string, string | undefined>>,
): Promise<ChatModel> {
  const { createOllamaModel, DEFAULT_OLLAMA_HOST } = await loadOllama();
  let host = options.baseUrl ?? env.OLLAMA_HOST ?? DEFAULT_OLLAMA_HOST;
  if (!/^https?:\/\//.test(host)) host = `http://${host}`;
  if (!(await reachable(host))) {
    throw usage(`cannot reach Ollama at ${host}: start it with \`ollama serve\` or pass --base-url`);
  }
  const model = options.model ?? env.OLLAMA_MODEL ?? DEFAULT_OLLAMA_MODEL;
  return guarded(
    createOllamaModel({ host, model, ...maxTokensOf(options) }),
    { llm: 'ollama', model, where: host },
    options,
  );
}

/**
 * The seed of the fault stream for `--seed n`: a stream of its own (the seed mixed with the 32-bit golden
 * ratio), so that fault injection and back-off jitter do not shift each other.
 */
export function faultSeed(seed: number): number {
  return (seed ^ 0x9e3779b9) >>> 0;
}

/**
 * Builds the model the options ask for: offline (default), an OpenAI-compatible endpoint, or Ollama,
 * wrapped in seeded fault injection when `flaky` is set, and in a simulated shared rate limit kept on
 * `clock` when `rateLimit` is (outermost, so that every request counts in its window, as at a provider).
 * Mistakes are one-line `E_USAGE` errors.
 * @example
 * const model = await createModel({ llm: 'offline', flaky: 0.5, seed: 1 }, process.env, catalog, systemClock);
 */
export async function createModel(
  options: ModelOptions,
  env: Readonly<Record<string, string | undefined>>,
  catalog: Catalog,
  clock: Pick<Clock, 'now'>,
): Promise<ChatModel> {
  let model: ChatModel;
  switch (options.llm) {
    case 'offline':
      model = createOfflineModel(catalog);
      break;
    case 'openai':
      model = await openai(options, env);
      break;
    case 'ollama':
      model = await ollama(options, env);
      break;
    default:
      throw usage(`unknown --llm '${options.llm}': use one of ${LLMS.join(', ')}`);
  }
  if (options.flaky !== undefined && options.flaky > 0) {
    model = createFlakyModel(model, { rate: options.flaky, random: seededRandom(faultSeed(options.seed)) });
  }
  if (options.rateLimit !== undefined) {
    model = createRateLimitedModel(model, {
      limit: options.rateLimit,
      windowMs: 1000,
      now: () => clock.now(),
    });
  }
  return model;
}
