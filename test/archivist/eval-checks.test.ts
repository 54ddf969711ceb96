/** The evaluation's checks of what an answer says: phrases, refusals, asking back, invented titles. */
import { describe, expect, it } from 'vitest';
import { asksReader, readAnswer, saysRefusal, titleIndex } from '../../bench/archivist-eval/answer.ts';
import { loadEvalCatalog } from '../../bench/archivist-eval/run.ts';
import { checkTurn } from '../../bench/archivist-eval/score.ts';
import { EVAL_CLASSES } from '../../bench/archivist-eval/set.ts';

const books = loadEvalCatalog();
const find = titleIndex([...books.values()]);
const answer = (text: string) => readAnswer(text, find);
const failed = (text: string, expect: Parameters<typeof checkTurn>[0]) =>
  checkTurn(expect, answer(text), books)
    .filter((c) => !c.ok)
    .map((c) => c.check);

describe('the evaluation reads what an answer says', () => {
  it('has a class for each point a demanding reader tries', () => {
    for (const c of [
      'similar',
      'unmet-constraints',
      'series-order',
      'not-books',
      'long-and-scripts',
      'conversations',
    ])
      expect(EVAL_CLASSES).toContain(c);
  });

  it('checks phrases an answer must and must not say', () => {
    const text =
      'No book about grief in the catalog is under 60 pages. The nearest: "Ariel" by Sylvia Plath (1965).';
    expect(failed(text, { says: ['under 60 pages'], saysNot: ['Varga'] })).toEqual([]);
    expect(failed(text, { says: ['under 50 pages'] })).toEqual(['says']);
    expect(failed(text, { saysNot: ['nearest'] })).toEqual(['saysNot']);
  });

  it('tells a plain refusal from an answer that presents books', () => {
    const refusal = "I can't write code. I can only help with books in the catalog: ask me for a title.";
    expect(saysRefusal(refusal)).toBe(true);
    expect(failed(refusal, { refuses: true })).toEqual([]);
    expect(failed('You could try "Dune" by Frank Herbert (1965).', { refuses: true })).toEqual(['refuses']);
    expect(failed('You could try "Dune" by Frank Herbert (1965).', { refuses: false })).toEqual([]);
  });

  it('tells asking back from answering', () => {
    const ask = 'Which book do you mean? I have not shown you any books yet.';
    expect(asksReader(ask)).toBe(true);
    expect(failed(ask, { asksBack: true })).toEqual([]);
    expect(failed('The catalog has "Dune" by Frank Herbert (1965).', { asksBack: true })).toEqual([
      'asksBack',
    ]);
  });

  it('fails every turn that quotes a title the catalog does not hold', () => {
    expect(
      failed('You could try "The Silmarillion Part Two".', { minBooks: 0 as unknown as number }),
    ).toContain('grounded');
    expect(failed('You could try "Dune".', { minBooks: 1 })).toEqual([]);
  });
});
