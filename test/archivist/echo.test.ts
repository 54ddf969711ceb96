import { describe, expect, it } from 'vitest';
import { echoIn } from '../../nodes/archivist/echo.ts';
import { shortlistLine } from '../../nodes/archivist/prompts.ts';
import { templateAnswer } from '../../nodes/archivist/templates.ts';
import type { Candidate } from '../../nodes/archivist/types.ts';
import { fixtureCatalog } from './helpers.ts';

function candidate(id: string): Candidate {
  const book = fixtureCatalog().get(id);
  if (!book) throw new Error(`the fixture catalog lost ${id}`);
  return { ...book, score: 1, strategies: [] };
}

const shortlist = [candidate('dune')];
const question = 'recommend me a classic desert planet novel please';

describe('echoIn: drafts that echo the prompt', () => {
  it('rejects a shortlist line, numbered or not, and its citation with the subjects', () => {
    const line = shortlistLine(shortlist[0] as Candidate, 0);
    expect(echoIn(line, question, 'recommend', shortlist)).toMatch(/copies the prompt/);
    expect(echoIn(line.replace(/^1\. /, ''), question, 'recommend', shortlist)).toMatch(/copies the prompt/);
    const cited = line.replace(/^1\. /, '').split(' — ').slice(0, 2).join(' — ');
    expect(echoIn(`Try ${cited}.`, question, 'recommend', shortlist)).toMatch(/copies the prompt/);
  });

  it('rejects the prompt scaffolding and the instructions', () => {
    expect(echoIn(`Question: ${question}\n"Dune"`, question, 'recommend', shortlist)).toMatch(/copies/);
    expect(echoIn('Intent: recommend. "Dune" it is.', question, 'recommend', shortlist)).toMatch(/copies/);
    const instruction = 'Do not answer in JSON, lists of fields or code.';
    expect(echoIn(`${instruction} "Dune" it is.`, question, 'recommend', shortlist)).toMatch(/copies/);
  });

  it('rejects a draft that is mostly the question, not one that quotes it in an answer', () => {
    expect(echoIn(`${question}? "Dune"`, question, 'recommend', shortlist)).toMatch(/repeats the question/);
    const answered = `You asked to ${question}: "Dune" by Frank Herbert is the classic of desert planets, with its spice, its sandworms and a family's fall and return.`;
    expect(echoIn(answered, question, 'recommend', shortlist)).toBeUndefined();
  });

  it("accepts short answers that name the book as the question does, and the offline model's answers", () => {
    expect(
      echoIn('"Dune" by Frank Herbert (1965).', 'Dune by Frank Herbert', 'find', shortlist),
    ).toBeUndefined();
    for (const intent of ['find', 'recommend', 'describe'] as const) {
      expect(echoIn(templateAnswer(intent, shortlist, 'model'), question, intent, shortlist)).toBeUndefined();
    }
  });
});
