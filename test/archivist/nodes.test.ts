import { describe, expect, it } from 'vitest';
import { classify } from '../../nodes/archivist/classify.ts';
import { compose } from '../../nodes/archivist/compose.ts';
import { planSearch } from '../../nodes/archivist/plan-search.ts';
import { hitsIn, rankHits } from '../../nodes/archivist/rank.ts';
import { readQuestion } from '../../nodes/archivist/read-question.ts';
import { respond } from '../../nodes/archivist/respond.ts';
import { classifyByRules } from '../../nodes/archivist/rules.ts';
import { salvage } from '../../nodes/archivist/salvage.ts';
import { searchBy } from '../../nodes/archivist/search-strategy.ts';
import type { AskData } from '../../nodes/archivist/services.ts';
import type { Candidate, ChatModel, Memory } from '../../nodes/archivist/types.ts';
import { validate } from '../../nodes/archivist/validate.ts';
import { context, fixtureCatalog, item, outputOf, services } from './helpers.ts';

const catalog = fixtureCatalog();

function shortlistFor(question: string, memory?: Memory): Candidate[] {
  const plan = planSearch(question, classifyByRules(question, memory, catalog), memory, catalog);
  return rankHits(
    plan.strategies.flatMap((s) => searchBy(s, catalog)),
    plan.filters,
    catalog,
  );
}

function fixed(answer: string): ChatModel {
  return { name: 'fixed', local: true, complete: async () => answer };
}

async function run(
  node: typeof validate | typeof compose | typeof salvage | typeof respond,
  data: AskData,
  model?: ChatModel,
) {
  const it = item(data as unknown as Record<string, unknown>);
  const result = await node.run?.(it, context(services(model)));
  return { output: outputOf(result ?? ''), data: it.data as unknown as AskData, result };
}

describe('search and rank', () => {
  it('puts the named title first for a find question', () => {
    expect(shortlistFor('find Brave New World')[0]?.title).toBe('Brave New World');
  });

  it('lists an author’s books for "books by"', () => {
    const titles = shortlistFor('books by Jane Austen').map((b) => b.title);
    expect(titles.slice(0, 3).sort()).toEqual(['Emma', 'Persuasion', 'Pride and Prejudice']);
  });

  it('recommends neighbours of a book, not the book itself', () => {
    const list = shortlistFor('recommend something like Nineteen Eighty-Four');
    expect(list.map((b) => b.id)).not.toContain('nineteen-eighty-four');
    expect(list[0]?.subjects).toEqual(expect.arrayContaining(['dystopia']));
  });

  it('finds a shorter book by the same author from the previous turn', () => {
    const memory: Memory = { author: 'George Orwell', bookId: 'nineteen-eighty-four' };
    expect(shortlistFor('something shorter by the same author', memory).map((b) => b.title)).toEqual([
      'Animal Farm',
    ]);
  });

  it('collects hits from any gathered shape', () => {
    const hit = { id: 'dune', score: 2, strategy: 'title' };
    expect(hitsIn([{ hits: [hit] }, { value: { hits: [hit] } }])).toEqual([hit, hit]);
  });
});

describe('nodes', () => {
  it('read-question trims and routes an empty question to empty', async () => {
    const it1 = item({ question: '  Who   wrote Dune? ' });
    expect(outputOf((await readQuestion.run?.(it1, context(services()))) ?? '')).toBe('read');
    expect(it1.data.question).toBe('Who wrote Dune?');
    expect(outputOf((await readQuestion.run?.(item({ question: '   ' }), context(services()))) ?? '')).toBe(
      'empty',
    );
  });

  it('classify routes to the intent the model gives', async () => {
    const data = item({ question: 'What is Dune about?' });
    expect(outputOf((await classify.run?.(data, context(services()))) ?? '')).toBe('describe');
    expect(data.data).toMatchObject({ intent: 'describe', classifiedBy: 'model' });
  });

  it('classify routes an unusable answer to unclear with the reason', async () => {
    const result = await classify.run?.(item({ question: 'Dune?' }), context(services(fixed('no idea'))));
    expect(result).toEqual({ output: 'unclear', reason: 'the model answered no JSON object' });
  });

  it('compose + validate: the offline draft names only shortlisted books and passes', async () => {
    const shortlist = shortlistFor('books by Kazuo Ishiguro');
    const composed = await run(compose, { question: 'books by Kazuo Ishiguro', intent: 'find', shortlist });
    expect(composed.output).toBe('drafted');
    const checked = await run(validate, composed.data);
    expect(checked.output).toBe('valid');
    expect(checked.data.answer).toContain('Never Let Me Go');
    expect(checked.data.source).toBe('model');
  });

  it.each([
    ['', 'the draft is empty'],
    ['{"answer": "Dune"}', 'the draft is JSON, not prose; answer in plain sentences'],
    [
      'Try "Dune" by Frank Herbert, or "Beloved".',
      'the draft names "Beloved", which is not in the shortlist',
    ],
    [
      'Try "Dune", or "The Glass Orchard" by Mira Castell.',
      'the draft names "The Glass Orchard", which is not in the shortlist; name only shortlisted books',
    ],
    ['I have nothing to suggest.', 'the draft names no book from the shortlist'],
  ])('validate rejects %j', async (draft, reason) => {
    const shortlist = shortlistFor('find Dune').slice(0, 1);
    const checked = await run(validate, { question: 'q', intent: 'find', shortlist, draft });
    expect(checked.result).toEqual({ output: 'invalid', reason });
    expect(checked.data.repair).toBe(reason);
  });

  it('compose passes the repair hint to the model', async () => {
    const seen: string[] = [];
    const model: ChatModel = {
      name: 'spy',
      local: true,
      complete: async (messages) => {
        seen.push(messages.at(-1)?.content ?? '');
        return 'ok';
      },
    };
    await run(compose, { question: 'q', intent: 'find', shortlist: [], repair: 'the draft is empty' }, model);
    expect(seen[0]).toContain('Your previous draft was rejected: the draft is empty.');
  });

  it('salvage answers from the shortlist alone', async () => {
    const shortlist = shortlistFor('books by George Orwell');
    const salvaged = await run(salvage, { question: 'q', intent: 'find', shortlist });
    expect(salvaged.output).toBe('salvaged');
    expect(salvaged.data.source).toBe('salvage');
    expect(salvaged.data.answer).toContain('"Animal Farm" by George Orwell (1945)');
  });

  it('respond remembers the top book and its author for the next turn', async () => {
    const shortlist = shortlistFor('books by George Orwell');
    const responded = await run(respond, {
      question: 'q',
      intent: 'find',
      shortlist,
      answer: ' A. ',
      source: 'model',
    });
    expect(responded.data.answer).toBe('A.');
    expect(responded.data.nextMemory).toMatchObject({ author: 'George Orwell', intent: 'find' });
  });
});
