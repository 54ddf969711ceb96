/**
 * The chain of errors behind a thrown value: its `cause`, and the `errors` it holds (an AggregateError, the
 * AI SDK's RetryError), walked latest first, each error once, without ever throwing.
 */
import { entriesOf, isArraySafe, isObjectLike, read } from './safe-read.ts';

/** Most errors one chain yields, however wide or deep it is: the walk stays cheap on a hostile value. */
export const CHAIN_LIMIT = 1000;

/** One error of a chain, and where it hangs. */
export interface Link {
  readonly error: object;
  /** How many `cause` / `errors` steps below the thrown value it is (0 for the thrown value itself). */
  readonly depth: number;
  /** The index in the chain of the error that holds it; -1 for the thrown value. */
  readonly parent: number;
}

/** The entries of an `errors` list, the last one first, at most `limit` of them; none when it cannot be read. */
function latestFirst(list: unknown, limit: number): unknown[] {
  return isArraySafe(list) ? entriesOf(list, limit, 'last').reverse() : [];
}

/**
 * The errors of the chain in depth-first order, each once, down to `maxDepth` levels below the thrown value.
 * An error's `cause` comes first, then its `errors` from the last to the first: such a list holds attempts
 * in the order they failed, so the latest failure, and what caused it, is met before older ones.
 *
 * @example
 * errorChain(new AggregateError([a, b], 'all failed'), 8).map((link) => link.error); // [aggregate, b, a]
 */
export function errorChain(thrown: unknown, maxDepth: number): Link[] {
  if (!isObjectLike(thrown)) return [];
  const seen = new Set<object>([thrown]);
  const out: Link[] = [];
  const stack: Link[] = [{ error: thrown, depth: 0, parent: -1 }];
  while (stack.length > 0 && out.length < CHAIN_LIMIT) {
    const link = stack.pop() as Link;
    const index = out.push(link) - 1;
    if (link.depth >= maxDepth) continue;
    // No more entries are read than the chain has room for: a list of a million errors costs no more.
    const room = Math.max(0, CHAIN_LIMIT - out.length - stack.length);
    const children = [read(link.error, 'cause'), ...latestFirst(read(link.error, 'errors'), room)];
    // Pushed in reverse, so that the first child is walked first.
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (!isObjectLike(child) || seen.has(child)) continue;
      seen.add(child);
      stack.push({ error: child, depth: link.depth + 1, parent: index });
    }
  }
  return out;
}

/**
 * The indices of the chain in the order to look for what belongs to the error at `index` (its Retry-After):
 * the error itself, then the errors that hold it, nearest first, then the errors it holds, in chain order.
 * Errors beside it (older attempts of a retry chain) are not looked at.
 */
export function lineage(chain: readonly Link[], index: number): number[] {
  const out = [index];
  for (let up = chain[index]?.parent ?? -1; up >= 0; up = chain[up]?.parent ?? -1) out.push(up);
  const below = new Set([index]);
  for (let i = index + 1; i < chain.length; i++) {
    const parent = chain[i]?.parent ?? -1;
    if (below.has(parent)) {
      below.add(i);
      out.push(i);
    }
  }
  return out;
}
