import type { Budget, Dag, Placement, Route, RouteKind } from '../document/model.ts';
import { problem, SwitchyardError } from '../errors.ts';

/** A route with its endpoints and budgets resolved to direct references, for the dispatcher's hot path. */
export interface CompiledRoute {
  readonly route: Route;
  readonly kind: RouteKind;
  readonly from: CompiledPlacement;
  readonly target: CompiledPlacement;
  /** Index into `CompiledDag.budgets`, or -1 when the route spends none. */
  readonly budget: number;
  /** Where the item goes when the budget is spent (retry routes only). */
  readonly exhausted: CompiledPlacement | undefined;
  /** Budget indices set back to zero when the route is taken. */
  readonly resets: readonly number[];
}

/** A placement with its routes indexed by output name. */
export interface CompiledPlacement {
  /** Position in `CompiledDag.placements` (the document's sorted order). */
  readonly index: number;
  readonly key: string;
  readonly placement: Placement;
  readonly routes: ReadonlyMap<string, CompiledRoute>;
}

/** A checked DAG in the form the dispatcher, the analyses and the renderer walk. */
export interface CompiledDag {
  readonly dag: Dag;
  readonly placements: readonly CompiledPlacement[];
  readonly byKey: ReadonlyMap<string, CompiledPlacement>;
  readonly entrypoints: readonly CompiledPlacement[];
  readonly budgets: readonly Budget[];
  readonly budgetIndex: ReadonlyMap<string, number>;
  /** Phase placements, in key order. */
  readonly pre: readonly CompiledPlacement[];
  readonly post: readonly CompiledPlacement[];
}

/**
 * Resolves every key of a document into direct references.
 * Expects a document that `analyse` accepted; a dangling reference still throws `E_DANGLING_ROUTE`,
 * `E_DANGLING_ENTRYPOINT` or `E_UNKNOWN_BUDGET` rather than producing a broken graph.
 */
export function compile(dag: Dag): CompiledDag {
  const byKey = new Map<string, CompiledPlacement>();
  const placements: CompiledPlacement[] = [];
  const budgetIndex = new Map<string, number>();
  for (const [i, b] of dag.budgets.entries()) budgetIndex.set(b.name, i);

  dag.placements.forEach((placement, index) => {
    const compiled: CompiledPlacement = { index, key: placement.key, placement, routes: new Map() };
    placements.push(compiled);
    byKey.set(placement.key, compiled);
  });

  const resolve = (key: string, from: string): CompiledPlacement => {
    const target = byKey.get(key);
    if (!target) {
      throw new SwitchyardError(
        'E_DANGLING_ROUTE',
        `placement '${from}' routes to '${key}', which does not exist`,
      );
    }
    return target;
  };
  const budgetOf = (name: string, from: string): number => {
    const index = budgetIndex.get(name);
    if (index === undefined) {
      throw new SwitchyardError(
        'E_UNKNOWN_BUDGET',
        `placement '${from}' names budget '${name}', which is not declared`,
      );
    }
    return index;
  };

  for (const compiled of placements) {
    const routes = compiled.routes as Map<string, CompiledRoute>;
    for (const route of compiled.placement.routes) {
      routes.set(route.output, {
        route,
        kind: route.kind,
        from: compiled,
        target: resolve(route.to, compiled.key),
        budget: route.budget === undefined ? -1 : budgetOf(route.budget, compiled.key),
        exhausted: route.exhausted === undefined ? undefined : resolve(route.exhausted, compiled.key),
        resets: (route.resets ?? []).map((name) => budgetOf(name, compiled.key)),
      });
    }
  }

  const entrypoints = dag.entrypoints.map((key) => {
    const entry = byKey.get(key);
    if (!entry) {
      throw new SwitchyardError('E_DANGLING_ENTRYPOINT', `entrypoint '${key}' is not a placement`, {
        problems: [problem('E_DANGLING_ENTRYPOINT', `entrypoint '${key}' is not a placement`)],
      });
    }
    return entry;
  });
  const phases = (when: 'pre' | 'post') =>
    placements.filter((p) => p.placement.kind === 'phase' && p.placement.when === when);

  return {
    dag,
    placements,
    byKey,
    entrypoints,
    budgets: dag.budgets,
    budgetIndex,
    pre: phases('pre'),
    post: phases('post'),
  };
}
