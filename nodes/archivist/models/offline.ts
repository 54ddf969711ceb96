import type { Catalog } from '../catalog.ts';
import { CLASSIFY_TASK, COMPOSE_TASK } from '../prompts.ts';
import { classifyByRules } from '../rules.ts';
import { templateAnswer } from '../templates.ts';
import type { Book, ChatMessage, ChatModel, Intent, Memory } from '../types.ts';
import { INTENTS } from '../types.ts';

function field(text: string, name: string): string | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}: `));
  return line?.slice(name.length + 2);
}

function parseMemory(text: string | undefined): Memory | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as Memory;
    return Object.keys(value).length === 0 ? undefined : value;
  } catch {
    return undefined;
  }
}

/**
 * The default model: deterministic rules and templates, no network. It reads the same prompts a real
 * model gets: classification answers JSON from `classifyByRules`, composition answers prose naming the
 * shortlisted books in order.
 * @example
 * const model = createOfflineModel(catalog);
 * await model.complete(classifyMessages('books by George Orwell', undefined), { signal });
 */
export function createOfflineModel(catalog: Catalog): ChatModel {
  const byTitle = new Map(catalog.books.map((b) => [b.title, b]));
  return {
    name: 'offline',
    local: true,
    async complete(messages: readonly ChatMessage[], { signal }) {
      signal.throwIfAborted();
      const system = messages.find((m) => m.role === 'system')?.content ?? '';
      const user = messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
      if (system.startsWith(CLASSIFY_TASK)) {
        const question = field(user, 'Question') ?? user;
        return JSON.stringify(classifyByRules(question, parseMemory(field(user, 'Previous turn')), catalog));
      }
      if (system.startsWith(COMPOSE_TASK)) {
        const intent = field(user, 'Intent') as Intent | undefined;
        const books = [...user.matchAll(/^\d+\. "(.+?)" by /gm)]
          .map((m) => byTitle.get(m[1] ?? ''))
          .filter((b): b is Book => b !== undefined);
        return templateAnswer(intent && INTENTS.includes(intent) ? intent : 'find', books, 'model');
      }
      return 'I can classify questions about books and compose answers from a shortlist.';
    },
  };
}
