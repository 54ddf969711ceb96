import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Catalog, createCatalog } from '../../nodes/archivist/catalog.ts';
import { createOfflineModel } from '../../nodes/archivist/models/offline.ts';
import type { ArchivistServices } from '../../nodes/archivist/services.ts';
import type { Book, ChatModel } from '../../nodes/archivist/types.ts';
import type { ItemView, NodeContext } from '../../src/runtime/node.ts';

/** The small hand-made catalog of the unit tests. */
export const FIXTURE_CATALOG = fileURLToPath(new URL('../fixtures/archivist/catalog.json', import.meta.url));

let cached: Catalog | undefined;

/** The fixture catalog, indexed once. */
export function fixtureCatalog(): Catalog {
  cached ??= createCatalog(JSON.parse(readFileSync(FIXTURE_CATALOG, 'utf8')) as Book[]);
  return cached;
}

/** Services over the fixture catalog with the offline model, or the given one. */
export function services(model?: ChatModel): ArchivistServices {
  const catalog = fixtureCatalog();
  return { catalog, model: model ?? createOfflineModel(catalog) };
}

/** A hand-made node context: no deadline, budgets from `attempts`, an in-memory journal. */
export function context(
  svc: ArchivistServices,
  options: { attempts?: Record<string, number>; signal?: AbortSignal } = {},
): NodeContext<ArchivistServices> {
  const journal = new Map<string, unknown>();
  return {
    signal: options.signal ?? new AbortController().signal,
    services: svc,
    placement: 'test',
    dag: 'urn:test',
    visit: 1,
    now: () => 0,
    attempts: (budget) => options.attempts?.[budget] ?? 0,
    async step(key, fn) {
      if (!journal.has(key)) journal.set(key, await fn({ idempotencyKey: `test/1/${key}` }));
      return journal.get(key) as never;
    },
  };
}

/** An item with the given data. */
export function item(data: Record<string, unknown>): ItemView {
  return { id: '1', data };
}

/** The output name of a node result. */
export function outputOf(result: string | { readonly output: string }): string {
  return typeof result === 'string' ? result : result.output;
}
