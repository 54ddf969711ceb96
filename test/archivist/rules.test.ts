import { describe, expect, it } from 'vitest';
import { classifyByRules } from '../../nodes/archivist/rules.ts';
import { fixtureCatalog } from './helpers.ts';

describe('classifyByRules', () => {
  const catalog = fixtureCatalog();

  it.each([
    ['Find books by George Orwell', 'find'],
    ['Who wrote Beloved?', 'find'],
    ['Recommend something like Dune', 'recommend'],
    ['Can you suggest a dystopia novel?', 'recommend'],
    ['What is Frankenstein about?', 'describe'],
    ['Tell me about The Left Hand of Darkness', 'describe'],
    ['What will the weather be tomorrow in Paris?', 'off-topic'],
    ['How do I bake sourdough bread?', 'off-topic'],
  ])('%s → %s', (question, intent) => {
    expect(classifyByRules(question, undefined, catalog).intent).toBe(intent);
  });

  it('falls back to a one-word title in lower case before refusing', () => {
    expect(classifyByRules('dune', undefined, catalog)).toMatchObject({ intent: 'find', title: 'Dune' });
    expect(classifyByRules('tell me about dune', undefined, catalog)).toMatchObject({
      intent: 'describe',
      title: 'Dune',
    });
    // A capitalised one-word title is taken at once; a question about nothing in the catalog is still refused.
    expect(classifyByRules('how do i bake bread?', undefined, catalog).intent).toBe('off-topic');
  });

  it('extracts the title and author the question names', () => {
    const c = classifyByRules('Tell me about Nineteen Eighty-Four by George Orwell', undefined, catalog);
    expect(c).toMatchObject({ intent: 'describe', title: 'Nineteen Eighty-Four', author: 'George Orwell' });
  });

  it('knows an author by a distinctive surname', () => {
    expect(classifyByRules('anything by Ishiguro?', undefined, catalog).author).toBe('Kazuo Ishiguro');
  });

  it('takes "the same author" and "shorter" from the previous turn', () => {
    const memory = { intent: 'find' as const, author: 'George Orwell', bookId: 'nineteen-eighty-four' };
    const c = classifyByRules('something shorter by the same author', memory, catalog);
    expect(c).toMatchObject({ intent: 'recommend', author: 'George Orwell', shorter: true });
  });

  it('describes the previous book when asked about "it"', () => {
    const c = classifyByRules('what is it about?', { bookId: 'dune' }, catalog);
    expect(c).toMatchObject({ intent: 'describe', title: 'Dune' });
  });
});
