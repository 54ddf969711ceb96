import type { Catalog } from '../../nodes/archivist/catalog.ts';
import { createFlakyModel } from '../../nodes/archivist/models/flaky.ts';
import { createOfflineModel } from '../../nodes/archivist/models/offline.ts';
import { createOllamaModel, DEFAULT_OLLAMA_HOST } from '../../nodes/archivist/models/ollama.ts';
import { createOpenAIModel } from '../../nodes/archivist/models/openai.ts';
import type { ChatModel } from '../../nodes/archivist/types.ts';
import { SwitchyardError } from '../../src/errors.ts';
import { seededRandom } from '../../src/policy/random.ts';
import { isReachable } from './reachable.ts';

/** The model options of the command line. */
export interface ModelOptions {
  readonly llm: string;
  readonly baseUrl?: string;
  readonly model?: string;
  readonly apiKeyEnv?: string;
  /** Share of failing calls, 0–1; 0 or undefined for none. */
  readonly flaky?: number;
  readonly seed: number;
}

/** The models `--llm` accepts. */
export const LLMS = ['offline', 'openai', 'ollama'] as const;

const DEFAULT_OPENAI_URL = 'https://api.openai.com/v1';
const DEFAULT_OPENAI_MODEL = 'gpt-4o-mini';
const DEFAULT_OLLAMA_MODEL = 'llama3.2';

function usage(message: string): SwitchyardError {
  return new SwitchyardError('E_USAGE', message);
}

async function openai(
  options: ModelOptions,
  env: Readonly<Record<string, string | undefined>>,
): Promise<ChatModel> {
  const keyVar = options.apiKeyEnv ?? 'OPENAI_API_KEY';
  const apiKey = env[keyVar];
  if (!apiKey) {
    throw usage(
      `no API key: set ${keyVar}${options.apiKeyEnv ? '' : ' (or name another variable with --api-key-env)'}`,
    );
  }
  const baseURL = options.baseUrl ?? env.OPENAI_BASE_URL ?? DEFAULT_OPENAI_URL;
  if (!(await isReachable(baseURL))) {
    throw usage(
      `cannot reach the chat-completions endpoint at ${baseURL}: check --base-url and that the server is running`,
    );
  }
  return createOpenAIModel({
    baseURL,
    apiKey,
    model: options.model ?? env.OPENAI_MODEL ?? DEFAULT_OPENAI_MODEL,
  });
}

async function ollama(
  options: ModelOptions,
  env: Readonly<Record<string, string | undefined>>,
): Promise<ChatModel> {
  let host = options.baseUrl ?? env.OLLAMA_HOST ?? DEFAULT_OLLAMA_HOST;
  if (!/^https?:\/\//.test(host)) host = `http://${host}`;
  if (!(await isReachable(host))) {
    throw usage(`cannot reach Ollama at ${host}: start it with \`ollama serve\` or pass --base-url`);
  }
  return createOllamaModel({ host, model: options.model ?? env.OLLAMA_MODEL ?? DEFAULT_OLLAMA_MODEL });
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
 * wrapped in seeded fault injection when `flaky` is set. Mistakes are one-line `E_USAGE` errors.
 * @example
 * const model = await createModel({ llm: 'offline', flaky: 0.5, seed: 1 }, process.env, catalog);
 */
export async function createModel(
  options: ModelOptions,
  env: Readonly<Record<string, string | undefined>>,
  catalog: Catalog,
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
  return model;
}
