/**
 * Checks of a document's declarations that need no graph walk: unique keys, budgets and outputs, references
 * that resolve, entrypoints of the right kind, the fields retry routes must (and other routes must not) have,
 * and the routes some kinds must have (a scatter's `done`, an await's `deadline`).
 */
import { AWAIT_DEADLINE_OUTPUT, type Dag, type Route } from '../document/model.ts';
import { type Problem, problem } from '../errors.ts';
import { type FlowGraph, pointerTo } from './flow.ts';

/** E_DUPLICATE_KEY and E_DUPLICATE_BUDGET, on every occurrence after the first. */
function duplicates(dag: Dag, graph: FlowGraph): Problem[] {
  const problems: Problem[] = [];
  dag.placements.forEach((placement, p) => {
    if (graph.indexOf.get(placement.key) !== p) {
      problems.push(
        problem(
          'E_DUPLICATE_KEY',
          `placement key '${placement.key}' is used twice; rename one of the placements`,
          {
            placement: placement.key,
            pointer: pointerTo.placement(p, 'key'),
          },
        ),
      );
    }
  });
  dag.budgets.forEach((budget, b) => {
    if (graph.budgetIndex.get(budget.name) !== b) {
      problems.push(
        problem(
          'E_DUPLICATE_BUDGET',
          `budget '${budget.name}' is declared twice; rename or remove one of them`,
          {
            pointer: pointerTo.budget(b, 'name'),
          },
        ),
      );
    }
  });
  return problems;
}

/** E_DANGLING_ENTRYPOINT and E_ENTRYPOINT_KIND. */
function entrypoints(dag: Dag, graph: FlowGraph): Problem[] {
  return dag.entrypoints.flatMap((key, e) => {
    const index = graph.indexOf.get(key);
    const pointer = pointerTo.entrypoint(e);
    if (index === undefined) {
      return [
        problem(
          'E_DANGLING_ENTRYPOINT',
          `entrypoint '${key}' is not a placement; name an existing placement key`,
          {
            placement: key,
            pointer,
          },
        ),
      ];
    }
    const kind = dag.placements[index]?.kind;
    if (kind === 'terminal' || kind === 'phase') {
      return [
        problem(
          'E_ENTRYPOINT_KIND',
          `entrypoint '${key}' is a ${kind}, where items cannot start; name a task, await, scatter, gather or embed placement`,
          { placement: key, pointer },
        ),
      ];
    }
    return [];
  });
}

/** Problems of one route: dangling references, unknown budgets, retry fields missing or misplaced. */
function routeProblems(graph: FlowGraph, p: number, r: number, route: Route): Problem[] {
  const key = graph.keys[p] as string;
  const at = (field?: string) => ({ placement: key, pointer: pointerTo.route(p, r, field) });
  const name = `route '${key}' → '${route.output}'`;
  const problems: Problem[] = [];
  const targetProblem = (
    target: string,
    code: 'E_DANGLING_ROUTE' | 'E_DANGLING_EXHAUSTION',
    what: string,
  ) => {
    const field = code === 'E_DANGLING_ROUTE' ? 'to' : 'exhausted';
    const index = graph.indexOf.get(target);
    if (index === undefined) {
      problems.push(
        problem(
          code,
          `${name} ${what} '${target}', which is not a placement; name an existing key`,
          at(field),
        ),
      );
    } else if (graph.dag.placements[index]?.kind === 'phase') {
      problems.push(
        problem(
          code,
          `${name} ${what} the phase '${target}', which items never enter; name another placement`,
          at(field),
        ),
      );
    }
  };
  targetProblem(route.to, 'E_DANGLING_ROUTE', 'targets');
  if (route.exhausted !== undefined)
    targetProblem(route.exhausted, 'E_DANGLING_EXHAUSTION', 'goes when exhausted to');
  if (route.budget !== undefined && !graph.budgetIndex.has(route.budget)) {
    problems.push(
      problem(
        'E_UNKNOWN_BUDGET',
        `${name} spends budget '${route.budget}', which is not declared; declare it under budgets`,
        at('budget'),
      ),
    );
  }
  (route.resets ?? []).forEach((reset, i) => {
    if (!graph.budgetIndex.has(reset)) {
      problems.push(
        problem(
          'E_UNKNOWN_BUDGET',
          `${name} resets budget '${reset}', which is not declared; declare it under budgets`,
          at(`resets/${i}`),
        ),
      );
    }
  });
  if (route.kind === 'retry') {
    if (route.budget === undefined) {
      problems.push(
        problem(
          'E_RETRY_WITHOUT_BUDGET',
          `retry ${name} spends no budget, so it may loop forever; add a budget`,
          at(),
        ),
      );
    }
    if (route.exhausted === undefined) {
      problems.push(
        problem(
          'E_RETRY_WITHOUT_EXHAUSTION',
          `retry ${name} has no exhaustion target; add 'exhausted' naming where items go when the budget is spent`,
          at(),
        ),
      );
    }
  } else {
    const misplaced = (['budget', 'exhausted', 'resets'] as const).filter(
      (field) => route[field] !== undefined,
    );
    const first = misplaced[0];
    if (first !== undefined) {
      problems.push(
        problem(
          'E_BUDGET_ON_NON_RETRY',
          `${route.kind} ${name} has ${misplaced.join(', ')}, which only retry routes use; make it kind 'retry' or remove them`,
          at(first),
        ),
      );
    }
  }
  return problems;
}

/** E_DUPLICATE_OUTPUT and every route's own problems. */
function routes(dag: Dag, graph: FlowGraph): Problem[] {
  return dag.placements.flatMap((placement, p) => {
    const seen = new Set<string>();
    return placement.routes.flatMap((route, r) => {
      const problems = routeProblems(graph, p, r, route);
      if (seen.has(route.output)) {
        problems.push(
          problem(
            'E_DUPLICATE_OUTPUT',
            `placement '${placement.key}' has two routes for output '${route.output}'; keep one route per output`,
            { placement: placement.key, pointer: pointerTo.route(p, r, 'output') },
          ),
        );
      }
      seen.add(route.output);
      return problems;
    });
  });
}

/** E_SCATTER_WITHOUT_GATHER: a scatter's `done` route must lead to a gather. */
function scatters(dag: Dag, graph: FlowGraph): Problem[] {
  return dag.placements.flatMap((placement, p) => {
    if (placement.kind !== 'scatter') return [];
    const r = placement.routes.findIndex((route) => route.output === 'done');
    const done = placement.routes[r];
    if (!done) {
      return [
        problem(
          'E_SCATTER_WITHOUT_GATHER',
          `scatter '${placement.key}' has no 'done' route; add one to the gather that collects its children`,
          { placement: placement.key, pointer: pointerTo.placement(p, 'routes') },
        ),
      ];
    }
    const target = graph.indexOf.get(done.to);
    const kind = target === undefined ? undefined : dag.placements[target]?.kind;
    if (kind === undefined || kind === 'gather') return [];
    return [
      problem(
        'E_SCATTER_WITHOUT_GATHER',
        `scatter '${placement.key}' routes 'done' to the ${kind} '${done.to}'; route it to a gather placement`,
        { placement: placement.key, pointer: pointerTo.route(p, r, 'to') },
      ),
    ];
  });
}

/** E_AWAIT_DEADLINE_ROUTE: an await's `deadline` output must be routed, so that every wait ends somewhere. */
function awaits(dag: Dag): Problem[] {
  return dag.placements.flatMap((placement, p) => {
    if (placement.kind !== 'await') return [];
    if (placement.routes.some((route) => route.output === AWAIT_DEADLINE_OUTPUT)) return [];
    return [
      problem(
        'E_AWAIT_DEADLINE_ROUTE',
        `await placement '${placement.key}' has no route on output '${AWAIT_DEADLINE_OUTPUT}', so an item whose deadline passes unanswered has nowhere to go; add a route on output '${AWAIT_DEADLINE_OUTPUT}' (e.g. to an escalation task or a failed terminal)`,
        { placement: placement.key, pointer: pointerTo.placement(p, 'routes') },
      ),
    ];
  });
}

/** W_UNUSED_BUDGET and W_NO_COMPLETED_TERMINAL. */
function warnings(dag: Dag): Problem[] {
  const spent = new Set(
    dag.placements.flatMap((p) =>
      p.routes.flatMap((r) => (r.kind === 'retry' && r.budget ? [r.budget] : [])),
    ),
  );
  const problems = dag.budgets.flatMap((budget, b) =>
    spent.has(budget.name)
      ? []
      : [
          problem(
            'W_UNUSED_BUDGET',
            `budget '${budget.name}' is spent by no retry route; remove it or name it on a retry route`,
            { pointer: pointerTo.budget(b) },
          ),
        ],
  );
  if (!dag.placements.some((p) => p.kind === 'terminal' && p.outcome === 'completed')) {
    problems.push(
      problem(
        'W_NO_COMPLETED_TERMINAL',
        `no terminal has outcome 'completed', so no item can succeed; add a terminal with outcome 'completed'`,
        { pointer: '/placements' },
      ),
    );
  }
  return problems;
}

/** Every declaration problem of a document. */
export function checkStructure(dag: Dag, graph: FlowGraph): Problem[] {
  return [
    ...duplicates(dag, graph),
    ...entrypoints(dag, graph),
    ...routes(dag, graph),
    ...scatters(dag, graph),
    ...awaits(dag),
    ...warnings(dag),
  ];
}
