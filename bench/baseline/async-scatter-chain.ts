/**
 * Workload W2 with asynchronous steps, written by hand: every element of a list starts at once (no
 * concurrency limit), runs through two asynchronous steps in turn, and the results are collected in input
 * order. What a dispatcher scatter → sub-DAG → gather run with asynchronous nodes and unbounded concurrency is
 * measured against.
 */
import { double, increment } from './scatter-chain.ts';

/** The first step as an `async` function: it answers with an already resolved promise. */
export async function doubleAsync(child: { item?: unknown; result?: unknown }): Promise<'ok'> {
  return double(child);
}

/** The second step: awaits one microtask before it answers, as a node awaiting a cached lookup would. */
export async function incrementAsync(child: { item?: unknown; result?: unknown }): Promise<'ok'> {
  await Promise.resolve();
  return increment(child);
}

/** A step of a child: sets or updates `child.result` and answers with its output. */
export type AsyncStep = (child: { item?: unknown; result?: unknown }) => Promise<'ok'>;

async function runChild(
  child: { item: unknown; index: number; result?: unknown },
  second: AsyncStep,
): Promise<boolean> {
  return (await doubleAsync(child)) === 'ok' && (await second(child)) === 'ok';
}

/**
 * Runs every element of `list` through both asynchronous steps, all children in flight at once, and returns
 * the values of the children that completed, in input order. `second` replaces the second step (default
 * {@link incrementAsync}), as a benchmark that holds every child in flight at once does.
 * @example
 * await asyncScatterChain([1, 2, 3]); // [3, 5, 7]
 */
export async function asyncScatterChain(
  list: readonly unknown[],
  second: AsyncStep = incrementAsync,
): Promise<unknown[]> {
  const results = await Promise.all(
    list.map(async (item, index) => {
      const child: { item: unknown; index: number; result?: unknown } = { item, index };
      const completed = await runChild(child, second);
      return { completed, value: child.result ?? null };
    }),
  );
  return results.filter((r) => r.completed).map((r) => r.value);
}
