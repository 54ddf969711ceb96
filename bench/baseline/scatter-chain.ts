/**
 * Workload W2 written by hand: fan a list out to at most `concurrency` workers, run each element through two
 * steps in turn, and collect the results in input order. What a dispatcher scatter → sub-DAG → gather run is
 * measured against.
 */

/** The first step: doubles the element. */
export function double(child: { item?: unknown; result?: unknown }): 'ok' {
  child.result = (child.item as number) * 2;
  return 'ok';
}

/** The second step: adds one to the first step's result. */
export function increment(child: { item?: unknown; result?: unknown }): 'ok' {
  child.result = (child.result as number) + 1;
  return 'ok';
}

async function runChild(child: { item: unknown; index: number; result?: unknown }): Promise<boolean> {
  return double(child) === 'ok' && increment(child) === 'ok';
}

/**
 * Runs every element of `list` through both steps, `concurrency` children in flight, and returns the values of
 * the children that completed, in input order.
 * @example
 * await scatterChain([1, 2, 3], 16); // [3, 5, 7]
 */
export async function scatterChain(list: readonly unknown[], concurrency: number): Promise<unknown[]> {
  const results = new Array<{ completed: boolean; value: unknown }>(list.length);
  let next = 0;
  const work = async (): Promise<void> => {
    while (next < list.length) {
      const index = next++;
      const child: { item: unknown; index: number; result?: unknown } = { item: list[index], index };
      const completed = await runChild(child);
      results[index] = { completed, value: child.result ?? null };
    }
  };
  const workers: Promise<void>[] = [];
  for (let w = 0; w < Math.max(1, Math.min(list.length, concurrency)); w++) workers.push(work());
  await Promise.all(workers);
  return results.filter((r) => r.completed).map((r) => r.value);
}
