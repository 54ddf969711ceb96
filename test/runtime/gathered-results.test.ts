/**
 * Child done for a scatter, as every executor hands it to `fanIn`: the steps a child recorded apart (a
 * distributed child's report) join the parent's journal and leave its result; children that shared the
 * parent's journal (in process) are handed on as they are.
 */
import { describe, expect, it } from 'vitest';
import { createItemState } from '../../src/runtime/item-state.ts';
import { gatheredResults } from '../../src/runtime/kinds/children.ts';
import type { ChildResult } from '../../src/runtime/kinds/gather.ts';

const result = (index: number, extra: object = {}): ChildResult =>
  ({ index, status: 'completed', value: index * 10, order: index, ...extra }) as ChildResult;

describe('gatheredResults', () => {
  it('hands results without steps of their own on as the same array', () => {
    const parent = createItemState('1', {});
    const results = [result(0), result(1), result(2)];
    expect(gatheredResults(parent, results)).toBe(results);
    expect(Object.keys(parent.journal)).toEqual([]);
  });

  it("joins each child's steps into the parent's journal, keeps the parent's own, and strips them from the results", () => {
    const parent = createItemState('1', {});
    parent.journal['fan[1:b]/charge'] = { value: 'kept' };
    const results = [
      result(0),
      result(1, { journal: { 'fan[1:b]/charge': { value: 'child' }, 'fan[1:b]/more': { value: 2 } } }),
      result(2, { journal: { 'fan[2:c]/charge': { value: 3 } } }),
    ];
    const gathered = gatheredResults(parent, results);
    expect(gathered).toEqual([result(0), result(1), result(2)]);
    expect(gathered.some((r) => 'journal' in r)).toBe(false);
    expect(parent.journal).toEqual({
      'fan[1:b]/charge': { value: 'kept' },
      'fan[1:b]/more': { value: 2 },
      'fan[2:c]/charge': { value: 3 },
    });
    // The results given are not changed: a report read again gives the same steps.
    expect(results[1]).toHaveProperty('journal');
  });
});
