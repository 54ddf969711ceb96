import { resolve } from 'node:path';
import type { ChatModel } from '../../nodes/archivist/types.ts';
import { seededRandom } from '../../src/policy/random.ts';
import { loadCatalogFile } from './catalog-file.ts';
import { type AskEngine, createAskEngine } from './engine.ts';
import type { ArchivistEnv } from './environment.ts';
import { createModel, type ModelOptions } from './model-options.ts';
import { DEFAULT_CATALOG, OFFLINE_POLICY_FILE, POLICY_FILE } from './paths.ts';
import { withProgress } from './progress.ts';

/** The options `ask` and `chat` share. */
export interface SessionOptions extends ModelOptions {
  readonly catalog?: string;
}

/** A ready engine and the model it uses. */
export interface Session {
  readonly engine: AskEngine;
  readonly model: ChatModel;
}

/** Loads the catalog, builds the model and the engine for one command. */
export async function openSession(options: SessionOptions, io: ArchivistEnv): Promise<Session> {
  const catalog = await loadCatalogFile(options.catalog ? resolve(io.cwd, options.catalog) : DEFAULT_CATALOG);
  const model = withProgress(await createModel(options, io.env, catalog), io.progress, io.isTTY);
  const policy = io.policy ?? (options.llm === 'offline' ? OFFLINE_POLICY_FILE : POLICY_FILE);
  const engine = await createAskEngine({
    services: { catalog, model },
    policy,
    clock: io.clock,
    random: seededRandom(options.seed),
  });
  return { engine, model };
}
