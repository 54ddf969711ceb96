import type { GatherPlacement } from '../../document/model.ts';
import { canonicalJson } from '../canonical-json.ts';
import type { ErrorSummary } from '../events.ts';

/** What one scatter child came back with. */
export interface ChildResult {
  /** Position in the scattered list. */
  readonly index: number;
  /** `cancelled`: stopped, or never started, once the gather's result was decided without it. */
  readonly status: 'completed' | 'failed' | 'cancelled';
  /** The child's `result` (see the scatter module); null when it set none. */
  readonly value: unknown;
  /** 0 for the first child to finish, 1 for the next, … */
  readonly order: number;
  /** Why a failed child failed: its terminal key or its error. */
  readonly terminal?: string;
  readonly error?: ErrorSummary;
}

/** The reduced value and the output a gather takes. */
export interface GatherOutcome {
  readonly output: 'completed' | 'failed';
  readonly value: unknown;
}

/**
 * The largest group of JSON-equal values among completed children; a tie goes to the group whose first
 * member comes first in input order (the lowest index), whatever order the children are given in.
 */
function largestAgreement(children: readonly ChildResult[]): { value: unknown; size: number } {
  const groups = new Map<string, { value: unknown; size: number; first: number }>();
  for (const child of children) {
    if (child.status !== 'completed') continue;
    const key = canonicalJson(child.value);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { value: child.value, size: 1, first: child.index });
    else {
      group.size++;
      if (child.index < group.first) {
        group.first = child.index;
        group.value = child.value;
      }
    }
  }
  let best: { value: unknown; size: number; first: number } = { value: null, size: 0, first: 0 };
  for (const group of groups.values()) {
    if (group.size > best.size || (group.size === best.size && group.first < best.first)) best = group;
  }
  return best;
}

/**
 * True once the children settled so far decide what {@link reduceChildren} returns, whatever the other
 * children (of `total`) would do: the scatter then cancels them. That happens only under the `first` reducer,
 * whose value is fixed by the first child to complete; its output is fixed too for `any` (by that same
 * child), for `all` once a child failed, and for `quorum` once enough children agree, or so many failed that
 * they never can. Every other reducer reads every child, so its children all run.
 *
 * @example
 * decided({ reducer: 'first', require: 'any' }, [{ index: 2, status: 'completed', value: 1, order: 0 }], 3); // true
 */
export function decided(
  gather: Pick<GatherPlacement, 'reducer' | 'require' | 'quorum'>,
  settled: readonly ChildResult[],
  total: number,
): boolean {
  if (gather.reducer !== 'first' || settled.length >= total) return false;
  let completed = 0;
  let failed = 0;
  for (const child of settled) {
    if (child.status === 'completed') completed++;
    else failed++;
  }
  if (completed === 0) return false;
  if (gather.require === 'any') return true;
  if (gather.require === 'all') return failed > 0;
  const quorum = gather.quorum ?? Math.floor(total / 2) + 1;
  const largest = largestAgreement(settled).size;
  return largest >= quorum || largest + (total - settled.length) < quorum;
}

/**
 * Reduces scatter children (given in input order) as a gather placement says.
 *
 * Reducers: `collect` → the values of the completed children, in input order; `partition` →
 * `{ completed: values in input order, failed: [{ index, terminal?, error? }] }`; `first` → the value of the
 * child that completed first (by completion order), null when none did; `quorum` → the value most completed
 * children agree on (JSON-equal; a tie goes to the value whose first child comes first in input order, the
 * lowest index, however the children settled), null when none completed.
 *
 * Requirements: `all` → every child completed (true for no children); `any` → at least one completed;
 * `quorum` → at least `quorum` completed children agree on one value (default: a majority of all children).
 *
 * Cancelled children (see {@link decided}) count as children but neither completed nor failed: they only
 * exist where the result was fixed without them.
 *
 * @example
 * reduceChildren({ reducer: 'collect', require: 'any' } as GatherPlacement, children);
 */
export function reduceChildren(
  gather: Pick<GatherPlacement, 'reducer' | 'require' | 'quorum'>,
  children: readonly ChildResult[],
): GatherOutcome {
  let completed = 0;
  for (const child of children) if (child.status === 'completed') completed++;

  let met: boolean;
  if (gather.require === 'all') met = completed === children.length;
  else if (gather.require === 'any') met = completed > 0;
  else
    met =
      completed > 0 &&
      largestAgreement(children).size >= (gather.quorum ?? Math.floor(children.length / 2) + 1);

  return { output: met ? 'completed' : 'failed', value: reduce(gather.reducer, children) };
}

function reduce(reducer: GatherPlacement['reducer'], children: readonly ChildResult[]): unknown {
  switch (reducer) {
    case 'collect':
      return children.filter((c) => c.status === 'completed').map((c) => c.value);
    case 'partition':
      return {
        completed: children.filter((c) => c.status === 'completed').map((c) => c.value),
        failed: children
          .filter((c) => c.status === 'failed')
          .map((c) => ({
            index: c.index,
            ...(c.terminal === undefined ? {} : { terminal: c.terminal }),
            ...(c.error === undefined ? {} : { error: c.error }),
          })),
      };
    case 'first': {
      let first: ChildResult | undefined;
      for (const child of children) {
        if (child.status === 'completed' && (first === undefined || child.order < first.order)) first = child;
      }
      return first === undefined ? null : first.value;
    }
    case 'quorum':
      return largestAgreement(children).value;
  }
}
