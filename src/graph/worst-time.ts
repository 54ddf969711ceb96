/**
 * Worst-case time of one item's run under a runtime policy: every execution takes its whole deadline and
 * every retry waits the longest delay the policy allows.
 */
import type { Dag, DagLibrary, Placement, ScatterPlacement } from '../document/model.ts';
import { gateOfPlacement } from '../gates/resolve.ts';
import type { GatePolicy } from '../gates/types.ts';
import { maxBackoffDelay } from '../policy/backoff.ts';
import { timingFor } from '../policy/resolve.ts';
import type { RuntimePolicy, TimingPolicy } from '../policy/types.ts';
import { type Bounds, type Count, computeBounds, countOf } from './bounds.ts';
import { type CompiledDag, type CompiledPlacement, compile } from './compile.ts';
import { GATE_FLOOR_MS, type GatedPlacement, type GateWait, gateWaits } from './gate-waits.ts';

/** The worst-case time of a run of one item, with its parts. */
export interface WorstCaseTime {
  /**
   * Upper bound in whole ms (exact at any size; fractional delays round up); undefined when some executed
   * placement has no bound and no run deadline is set.
   */
  readonly totalMs: bigint | undefined;
  /** Why the sum of the parts has no bound (totalMs is then the run deadline, or undefined). */
  readonly unboundedBecause?: string;
  /** Executions × the longest one execution can take, for every executed placement with a known bound. */
  readonly perPlacement: Map<string, bigint>;
  /** For scatter keys: the longest one scattered child can take (the list length is not known statically). */
  readonly perChild: Map<string, bigint>;
  /** The longest total wait before retries, over every budget. */
  readonly backoffMs: bigint;
  /** True when the run deadline is below the sum of the parts and so bounds `totalMs`. */
  readonly cappedByRunDeadline: boolean;
  /**
   * Every placement whose executions pass a gate of the policy, in the document and those it embeds. Their
   * waits are inside their deadlines, so inside `perPlacement` (see `gate-waits.ts`); `visits` counts the
   * executions per run of the placement's own document.
   */
  readonly gateWaits: readonly GateWait[];
  /** Every await placement executed, in the document and those it embeds, with its deadline. */
  readonly awaitWaits: readonly AwaitWait[];
}

/** An await placement's waits in a run of one item: each ends by its deadline (inside `perPlacement`). */
export interface AwaitWait {
  readonly dag: string;
  readonly placement: string;
  /** Executions of the placement per run of its document (null: no bound). */
  readonly visits: Count;
  /** The policy's deadline for the placement: the longest one visit waits; undefined: none (it may never end). */
  readonly deadlineMs: number | undefined;
}

/** Attempts beyond this are bounded by the largest possible delay instead of computed one by one. */
const EXACT_ATTEMPTS = 10_000;

/** The longest a retry can wait on `attempt` under a timing: the back-off, or a capped Retry-After hint. */
function longestDelay(attempt: number, timing: TimingPolicy): number {
  // Decorrelated delays grow from the previous delay, which a Retry-After hint or an earlier loop may have set
  // high, so only the cap bounds them.
  const backoff =
    timing.backoff.strategy === 'decorrelated'
      ? Math.max(0, timing.backoff.capMs)
      : maxBackoffDelay(attempt, timing.backoff, timing.jitter);
  return timing.retryAfter.honour ? Math.max(backoff, timing.retryAfter.capMs) : backoff;
}

/** The longest any attempt can wait under a timing. */
function delayCeiling(timing: TimingPolicy): number {
  const cap = Math.max(0, timing.backoff.capMs);
  return timing.retryAfter.honour ? Math.max(cap, timing.retryAfter.capMs) : cap;
}

function nodeOf(placement: Placement): string | undefined {
  return placement.kind === 'task' || placement.kind === 'phase' || placement.kind === 'scatter'
    ? placement.node
    : undefined;
}

interface Context {
  readonly policy: RuntimePolicy;
  readonly library: DagLibrary | undefined;
  readonly visiting: Set<string>;
  /** Gated placements met so far, by `<dag IRI>#<key>` (a document embedded twice is met twice). */
  readonly gated: Map<string, GatedPlacement>;
  /** Await placements met so far, by `<dag IRI>#<key>`. */
  readonly awaits: Map<string, AwaitWait>;
}

/** The gate the executions of a placement pass: tasks and node-bodied scatters (see runtime/prepare.ts). */
function gateOf(dag: Dag, at: CompiledPlacement, context: Context): GatePolicy | undefined {
  const { placement } = at;
  if (placement.kind !== 'task' && placement.kind !== 'scatter') return undefined;
  if (placement.node === undefined) return undefined;
  return gateOfPlacement(context.policy.gates, dag.id, at, placement.node);
}

/** The longest one execution takes beyond its deadline: the 1 ms a gate lets a late start have. */
const overrun = (gate: GatePolicy | undefined): bigint => (gate === undefined ? 0n : BigInt(GATE_FLOOR_MS));

type Part = { readonly ms: bigint } | { readonly reason: string };

/** Whole milliseconds, rounded up so that the bound stays an upper bound. */
const wholeMs = (ms: number): bigint => BigInt(Math.ceil(Math.max(0, ms)));

interface Parts {
  readonly sum: bigint;
  readonly reasons: readonly string[];
  readonly perPlacement: Map<string, bigint>;
  readonly perChild: Map<string, bigint>;
  readonly backoffMs: bigint;
}

/** The sum of the parts of a document's worst case, without the run deadline. */
function partsOf(compiled: CompiledDag, bounds: Bounds, context: Context): Parts {
  const { dag } = compiled;
  const timing = (placement: Placement): TimingPolicy =>
    timingFor(context.policy, dag.id, placement.key, nodeOf(placement));
  const perPlacement = new Map<string, bigint>();
  const perChild = new Map<string, bigint>();
  const reasons: string[] = [];
  let sum = 0n;
  for (const at of compiled.placements) {
    const { placement } = at;
    const gate = gateOf(dag, at, context);
    if (placement.kind === 'scatter') {
      const child = childOfScatter(placement, timing(placement), context);
      if ('ms' in child) perChild.set(placement.key, child.ms + overrun(gate));
    }
    const executions = countOf(bounds.perPlacement, placement.key);
    if (executions === 0n) continue;
    if (gate !== undefined) {
      context.gated.set(`${dag.id}#${placement.key}`, {
        gate,
        dag: dag.id,
        placement: placement.key,
        visits: executions,
        timing: timing(placement),
      });
    }
    if (placement.kind === 'await') {
      const { deadlineMs } = timing(placement);
      const wait = { dag: dag.id, placement: placement.key, visits: executions, deadlineMs };
      context.awaits.set(`${dag.id}#${placement.key}`, wait);
    }
    const part = executionTime(dag, placement, timing(placement), context, overrun(gate));
    if ('reason' in part) reasons.push(part.reason);
    else if (executions === null) {
      reasons.push(`placement '${placement.key}' has no bound on its executions`);
    } else {
      perPlacement.set(placement.key, executions * part.ms);
      sum += executions * part.ms;
    }
  }

  // The timings of the placements at both ends of each budget's retry routes, gathered in one pass.
  const timings: TimingPolicy[][] = compiled.budgets.map(() => []);
  for (const p of compiled.placements) {
    for (const r of p.routes.values()) {
      if (r.kind === 'retry' && r.budget >= 0) {
        timings[r.budget]?.push(timing(r.from.placement), timing(r.target.placement));
      }
    }
  }
  let backoffMs = 0n;
  compiled.budgets.forEach((budget, b) => {
    const spends = countOf(bounds.spends, budget.name);
    const those = timings[b] ?? [];
    if (spends === 0n || those.length === 0) return;
    if (spends === null) {
      reasons.push(`budget '${budget.name}' has no bound on its spends`);
      return;
    }
    const exact = spends < BigInt(EXACT_ATTEMPTS) ? Number(spends) : EXACT_ATTEMPTS;
    for (let attempt = 1; attempt <= exact; attempt++) {
      let longest = 0;
      for (const t of those) longest = Math.max(longest, longestDelay(attempt, t));
      backoffMs += wholeMs(longest);
    }
    let ceiling = 0;
    for (const t of those) ceiling = Math.max(ceiling, delayCeiling(t));
    backoffMs += (spends - BigInt(exact)) * wholeMs(ceiling);
  });
  return { sum: sum + backoffMs, reasons, perPlacement, perChild, backoffMs };
}

/** The longest one scattered child can take: the body node's deadline, or the body document's worst case. */
function childOfScatter(placement: ScatterPlacement, timing: TimingPolicy, context: Context): Part {
  if (placement.dag !== undefined) return childTime(placement.dag, context);
  return timing.deadlineMs === undefined
    ? { reason: `scatter '${placement.key}' has no deadline for its body node` }
    : { ms: wholeMs(timing.deadlineMs) };
}

/**
 * The longest one execution of a placement can take, its gate's wait included (`overrun`: what a gated
 * execution may take beyond its deadline); an await's is its deadline, the longest it waits for an answer;
 * embed and scatter placements have no deadline of their own.
 */
function executionTime(
  dag: Dag,
  placement: Placement,
  timing: TimingPolicy,
  context: Context,
  overrun: bigint,
): Part {
  const deadline = timing.deadlineMs;
  switch (placement.kind) {
    case 'terminal':
    case 'gather':
      return { ms: 0n };
    case 'task':
    case 'phase':
      return deadline === undefined
        ? { reason: `placement '${placement.key}' has no deadline; set deadlineMs for it in the policy` }
        : { ms: wholeMs(deadline) + overrun };
    case 'await':
      // An answer ends the wait early; without one the deadline routes the item, so it never waits longer.
      return deadline === undefined
        ? {
            reason: `await placement '${placement.key}' has no deadline, so it may wait for ever; set deadlineMs for it in the policy`,
          }
        : { ms: wholeMs(deadline) };
    case 'scatter':
      return {
        reason: `scatter '${placement.key}' fans out over a list whose length is not known statically; set run.deadlineMs in the policy to bound the run`,
      };
    case 'embed': {
      const child = childTime(placement.dag, context);
      return 'ms' in child ? child : { reason: `embed '${placement.key}': ${child.reason}` };
    }
  }
  return { reason: `placement '${(placement as Placement).key}' in '${dag.id}' has an unknown kind` };
}

/** The worst-case time of one run of an embedded document. */
function childTime(iri: string, context: Context): Part {
  if (context.visiting.has(iri)) return { reason: `the document '${iri}' embeds itself` };
  const child = context.library?.get(iri);
  if (!child) return { reason: `the document '${iri}' is not in the library` };
  let compiled: CompiledDag;
  try {
    compiled = compile(child);
  } catch {
    return { reason: `the document '${iri}' does not compile` };
  }
  context.visiting.add(iri);
  const parts = partsOf(compiled, computeBounds(compiled, context.library), context);
  context.visiting.delete(iri);
  return parts.reasons.length === 0 ? { ms: parts.sum } : { reason: parts.reasons.join('; ') };
}

/**
 * Worst-case time of one item's run: Σ executions × deadline over the placements, plus for every budget the
 * longest waits of all its spends (back-off, or the Retry-After cap when hints are honoured and it is larger),
 * capped by the run deadline when one is set. A wait at a gate of the policy counts against the placement's
 * deadline, so it is inside its execution's time (plus the 1 ms a late start is given, see `gate-waits.ts`),
 * however many items queue at the gate; `gateWaits` says how long one visit of an item alone may wait. An
 * await's execution is its deadline (an answer only ends it sooner); `awaitWaits` lists each with it.
 * Embedded documents are looked up in `library`.
 * @example
 * const compiled = compile(dag);
 * const time = worstCaseTime(compiled, computeBounds(compiled), resolvePolicy({ defaults: { deadlineMs: 1000 } }));
 * time.totalMs; // undefined (with time.unboundedBecause) when a placement has no deadline
 */
export function worstCaseTime(
  compiled: CompiledDag,
  bounds: Bounds,
  policy: RuntimePolicy,
  library?: DagLibrary,
): WorstCaseTime {
  const context: Context = {
    policy,
    library,
    visiting: new Set([compiled.dag.id]),
    gated: new Map(),
    awaits: new Map(),
  };
  const parts = partsOf(compiled, bounds, context);
  const runDeadline = policy.run.deadlineMs === undefined ? undefined : wholeMs(policy.run.deadlineMs);
  const unbounded = parts.reasons.length > 0;
  const capped = runDeadline !== undefined && (unbounded || runDeadline < parts.sum);
  const totalMs = capped ? runDeadline : unbounded ? undefined : parts.sum;
  const result = {
    totalMs,
    perPlacement: parts.perPlacement,
    perChild: parts.perChild,
    backoffMs: parts.backoffMs,
    cappedByRunDeadline: capped,
    gateWaits: gateWaits([...context.gated.values()]),
    awaitWaits: [...context.awaits.values()],
  };
  return unbounded ? { ...result, unboundedBecause: parts.reasons.join('; ') } : result;
}
