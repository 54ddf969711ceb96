import { resolve } from 'node:path';
import type { ChatModel } from '../../nodes/archivist/types.ts';
import { seededRandom } from '../../src/policy/random.ts';
import type { OtlpTracing } from '../../src/telemetry/otlp.ts';
import { loadCatalogFile } from './catalog-file.ts';
import { type AskEngine, createAskEngine, loadArchivistDags } from './engine.ts';
import type { ArchivistEnv } from './environment.ts';
import { createModel, type ModelOptions } from './model-options.ts';
import { DEFAULT_CATALOG, OFFLINE_POLICY_FILE, POLICY_FILE } from './paths.ts';
import { withProgress } from './progress.ts';
import { openStore, type SessionStore } from './store.ts';

/** The options `ask` and `chat` share. */
export interface SessionOptions extends ModelOptions {
  readonly catalog?: string;
  /** The run store file each question is recorded in; none when absent. */
  readonly store?: string;
  /** Export each run's trace over OTLP/HTTP (`--otel`, the `OTEL_*` variables). */
  readonly otel?: boolean;
}

/** A ready engine and the model it uses. */
export interface Session {
  readonly engine: AskEngine;
  readonly model: ChatModel;
  /** The store the runs are recorded in, when there is one. */
  readonly store?: SessionStore;
  /** Closes the store. */
  close(): Promise<void>;
}

/** The OTLP exporter of `--otel`, loaded only then. */
async function otlpTracing(serviceName: string): Promise<OtlpTracing> {
  const { otlpTracing: load } = await import('../../src/telemetry/otlp.ts');
  return load(serviceName);
}

/** Loads the catalog, builds the model and the engine for one command. */
export async function openSession(options: SessionOptions, io: ArchivistEnv): Promise<Session> {
  // The DAG documents are read while the catalog loads; a failure is reported when the engine is made.
  const dags = loadArchivistDags();
  dags.catch(() => undefined);
  const catalog = await loadCatalogFile(options.catalog ? resolve(io.cwd, options.catalog) : DEFAULT_CATALOG);
  const model = withProgress(await createModel(options, io.env, catalog, io.clock), io.progress, io.isTTY);
  const policy = io.policy ?? (options.llm === 'offline' ? OFFLINE_POLICY_FILE : POLICY_FILE);
  const store = options.store === undefined ? undefined : await openStore(options.store, io.cwd);
  const otel = options.otel === true ? await otlpTracing('archivist') : undefined;
  const engine = await createAskEngine({
    // "The last twenty years" counts from the injected clock's date.
    services: { catalog, model, year: () => new Date(io.clock.wallNow()).getUTCFullYear() },
    policy,
    clock: io.clock,
    random: seededRandom(options.seed),
    ...(store ? { store: store.store } : {}),
    ...(otel ? { tracerProvider: otel.provider } : {}),
    dags,
  }).catch(async (error: unknown) => {
    await store?.store.close();
    await otel?.shutdown();
    throw error;
  });
  return {
    engine,
    model,
    ...(store ? { store } : {}),
    close: async () => {
      await store?.store.close();
      const flushed = await otel?.shutdown();
      if (flushed?.error !== undefined) {
        const why = flushed.error instanceof Error ? flushed.error.message : String(flushed.error);
        io.err(
          `archivist: --otel: the spans could not all be exported (${why}); check OTEL_EXPORTER_OTLP_ENDPOINT`,
        );
      }
    },
  };
}
