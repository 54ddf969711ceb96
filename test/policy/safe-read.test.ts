import { describe, expect, it } from 'vitest';
import { errorChain } from '../../src/policy/error-chain.ts';
import { entriesOf } from '../../src/policy/safe-read.ts';

/** An array that says it holds `length` entries and counts the entries read; entry 2 throws when read. */
function counted(length: number) {
  const reads: number[] = [];
  const array = new Proxy([] as unknown[], {
    get(target, key, receiver) {
      if (key === 'length') return length;
      if (typeof key === 'string' && /^\d+$/u.test(key)) {
        reads.push(Number(key));
        if (key === '2') throw new Error('hostile entry');
        return `e${key}`;
      }
      return Reflect.get(target, key, receiver);
    },
  });
  return { array, reads };
}

describe('entriesOf', () => {
  it('reads the first or the last entries in order, an entry that throws as undefined', () => {
    expect(entriesOf(counted(5).array, 3)).toEqual(['e0', 'e1', undefined]);
    expect(entriesOf(counted(5).array, 3, 'last')).toEqual([undefined, 'e3', 'e4']);
    expect(entriesOf(counted(2).array, 10, 'last')).toEqual(['e0', 'e1']);
    expect(entriesOf(counted(5).array, 0, 'last')).toEqual([]);
  });

  it('reads no more than its limit of a list that says it is huge', () => {
    const { array, reads } = counted(2 ** 32 - 1);
    expect(entriesOf(array, 2, 'last')).toEqual(['e4294967293', 'e4294967294']);
    expect(reads).toEqual([2 ** 32 - 3, 2 ** 32 - 2]);
  });
});

describe('errorChain', () => {
  it("walks an errors list from its last entry, reading no more than the chain's room", () => {
    const { array, reads } = counted(2 ** 32 - 1);
    const aggregate = Object.assign(new Error('all failed'), { errors: array });
    const chain = errorChain(aggregate, 4);
    expect(chain.length).toBe(1);
    expect(reads.length).toBe(999);
    expect(Math.max(...reads)).toBe(2 ** 32 - 2);
    expect(Math.min(...reads)).toBe(2 ** 32 - 1 - 999);
  });
});
