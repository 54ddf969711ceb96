/**
 * What the nodes of a generated case do, as data, and the node definitions that carry it out. Every answer
 * is a pure function of what every executor gives a node alike: the item's id and data, the visit, the
 * spent budgets, the placement and its document. So a case ends the same in process, in a durable run and
 * on the workers, whatever the order in which items are scheduled and whatever clock runs the waits.
 */
import {
  defineNode,
  type NodeContext,
  type NodeDefinition,
  type NodeResult,
} from '../../src/runtime/node.ts';

/** A Retry-After a node gives: milliseconds, header seconds, a past HTTP-date, or an unusable value. */
export type Hint = { readonly ms: number } | { readonly header: string } | { readonly bad: string };

/** One execution of a task node. */
export type Action =
  /** Takes a routed `next`/`salvage` output (`go` or `alt`), writing what it saw into the item's data. */
  | { readonly kind: 'go'; readonly output: 'go' | 'alt' }
  /** Takes the output of its self-retry route, with an optional Retry-After. */
  | { readonly kind: 'again'; readonly hint?: Hint }
  /** Throws an error the policy classifies: an HTTP status (with Retry-After headers) or a network code. */
  | { readonly kind: 'throw'; readonly status?: number; readonly code?: string; readonly hint?: Hint }
  /** Never answers: the placement deadline cuts it (a timeout, retryable). */
  | { readonly kind: 'hang' }
  /** Takes an output no route leaves on: the item fails with E_UNROUTED_OUTPUT. */
  | { readonly kind: 'stray' }
  /** Takes the loop output back to an earlier placement; the loop rewrites the lists first while it can. */
  | { readonly kind: 'redo' }
  /** Takes the self-retry output with a Retry-After longer than the run deadline leaves. */
  | { readonly kind: 'long' };

/** The loop a task closes: the budget its `redo` route spends, and that budget's maximum. */
export interface LoopPlan {
  readonly budget: string;
  readonly max: number;
}

/** How a task node answers: one script per item (chosen by a hash of the item's id), one action per visit. */
export interface TaskPlan {
  readonly kind: 'task';
  readonly scripts: readonly (readonly Action[])[];
  /** Answers at once, through a promise, or as a batch node (batch scripts never throw or hang). */
  readonly mode: 'sync' | 'async' | 'batch';
  /** Journals a step before answering (its first value comes back on every later visit). */
  readonly step: boolean;
  /** Where the document's data lives: '' at the root of an embedded or input item, '/item' in a scatter child. */
  readonly dataRoot: '' | '/item';
  readonly loop?: LoopPlan;
}

/** How a scatter's body node ends a child, chosen by a hash of the list element's `k`. */
export type BodyAction = 'ok' | 'same' | 'failed' | 'throw503' | 'throw400';

export interface BodyPlan {
  readonly kind: 'body';
  readonly table: readonly BodyAction[];
  readonly mode: 'sync' | 'async';
}

export interface PhasePlan {
  readonly kind: 'phase';
  readonly action: 'ok' | 'step' | 'throw';
}

export type Plan = TaskPlan | BodyPlan | PhasePlan;

/** The outputs every task node declares; routes leave on some of them. */
export const TASK_OUTPUTS = ['go', 'alt', 'again', 'redo', 'stray'] as const;

/** A list element: a value the body gives back, a key its behaviour hashes, and a list of its own. */
export interface Element {
  readonly v: string;
  readonly k: number;
  readonly list?: readonly Element[];
}

/** A 32-bit FNV-1a hash. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The body action for an element of key `k` at the scatter whose node is `iri`. */
export function bodyAction(plan: BodyPlan, iri: string, k: number): BodyAction {
  return plan.table[hash32(`${iri}|${k}`) % plan.table.length] as BodyAction;
}

/** The action of task node `iri` for item `id` on `visit`. */
export function taskAction(plan: TaskPlan, iri: string, id: string, visit: number): Action {
  const script = plan.scripts[hash32(`${iri}|${id}`) % plan.scripts.length] as readonly Action[];
  return script[Math.min(visit, script.length) - 1] as Action;
}

/**
 * What a loop writes before going round again: every element of the list, and of the lists inside its
 * elements, marked with the new round. Children of a later visit so see other values than those of the
 * first, down to the scatters of the documents a scatter or embed runs.
 */
export function rewritten(list: unknown, round: number): unknown {
  if (!Array.isArray(list)) return list;
  return list.map((e) => {
    if (e === null || typeof e !== 'object') return e;
    const element = e as Element;
    return {
      ...element,
      v: `${String(element.v)}${round}`,
      ...(element.list === undefined ? {} : { list: rewritten(element.list, round) }),
    };
  });
}

/** The object at `dataRoot` of an item's data (created when absent). */
function scope(data: Record<string, unknown>, dataRoot: '' | '/item'): Record<string, unknown> {
  if (dataRoot === '') return data;
  const inner = data.item;
  if (inner !== null && typeof inner === 'object' && !Array.isArray(inner))
    return inner as Record<string, unknown>;
  const made: Record<string, unknown> = {};
  data.item = made;
  return made;
}

function hintValue(hint: Hint): number | string {
  return 'ms' in hint ? hint.ms : 'header' in hint ? hint.header : hint.bad;
}

/** An error as an HTTP client throws it: a status, and the Retry-After as a response header. */
function thrown(action: Extract<Action, { kind: 'throw' }>, where: string): Error {
  if (action.code !== undefined) {
    return Object.assign(new Error(`connection reset at ${where}`), { code: action.code });
  }
  const status = action.status ?? 500;
  const hint = action.hint;
  const headers =
    hint === undefined
      ? undefined
      : 'ms' in hint
        ? { 'retry-after-ms': String(hint.ms) }
        : { 'retry-after': String(hintValue(hint)) };
  return Object.assign(new Error(`HTTP ${status} at ${where}`), {
    status,
    ...(headers === undefined ? {} : { response: { status, headers } }),
  });
}

/** Carries out one task action for one item; `data` is the item's data. */
async function act(
  plan: TaskPlan,
  action: Action,
  item: { id: string; data: Record<string, unknown> },
  ctx: NodeContext,
): Promise<NodeResult> {
  const own = scope(item.data, plan.dataRoot);
  if (plan.step) {
    // The first visit's value is what every later visit (a retry, a loop) gets back.
    const noted = await ctx.step('note', () => `${ctx.placement}@${ctx.visit}/r${String(own.round ?? 0)}`);
    item.data[`note_${ctx.placement}`] = noted;
  }
  item.data[`seen_${ctx.placement}`] = ctx.visit;
  switch (action.kind) {
    case 'go': {
      const mark = `${ctx.placement}@${ctx.visit}/r${String(own.round ?? 0)}`;
      if (plan.dataRoot === '/item') item.data.result = `${String(own.v ?? '?')}:${ctx.placement}`;
      else item.data.out = mark;
      return action.output;
    }
    case 'again':
      return action.hint === undefined ? 'again' : { output: 'again', retryAfter: hintValue(action.hint) };
    case 'long':
      return { output: 'again', retryAfter: 45_000, reason: 'rate limited for longer than the run has' };
    case 'throw':
      throw thrown(action, `${ctx.placement}@${ctx.visit}`);
    case 'hang':
      return new Promise<NodeResult>((_resolve, reject) => {
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true });
      });
    case 'stray':
      return 'stray';
    case 'redo': {
      const loop = plan.loop as LoopPlan;
      // The loop rewrites the data only when its route will be taken, so that what a scatter saw last is
      // what the data holds.
      if (ctx.attempts(loop.budget) < loop.max) {
        const round = Number(own.round ?? 0) + 1;
        own.round = round;
        own.list = rewritten(own.list, round);
      }
      return 'redo';
    }
  }
}

/** A synchronous node cannot await a step or hang: it answers with the action's output at once. */
function actNow(plan: TaskPlan, action: Action, item: { data: Record<string, unknown> }, placement: string) {
  item.data[`seen_${placement}`] = true;
  if (action.kind === 'go') {
    if (plan.dataRoot === '/item')
      item.data.result = `${String(scope(item.data, '/item').v ?? '?')}:${placement}`;
    else item.data.out = `${placement}/sync`;
    return action.output;
  }
  if (action.kind === 'again')
    return action.hint === undefined ? 'again' : { output: 'again', retryAfter: hintValue(action.hint) };
  if (action.kind === 'throw') throw thrown(action, placement);
  return action.kind === 'stray'
    ? 'stray'
    : action.kind === 'long'
      ? { output: 'again', retryAfter: 45_000 }
      : 'go';
}

/** The node definition of one placement's plan, registered under `iri`. */
export function nodeOf(iri: string, plan: Plan): NodeDefinition<string, never> {
  if (plan.kind === 'phase') {
    return defineNode({
      id: iri,
      outputs: ['done'],
      run: async (item, ctx) => {
        if (plan.action === 'throw')
          throw Object.assign(new Error(`phase ${ctx.placement} refused`), { status: 400 });
        if (plan.action === 'step')
          item.data[ctx.placement] = await ctx.step('phase', () => `${ctx.placement} ran`);
        else item.data[ctx.placement] = 'ran';
        return 'done';
      },
    }) as NodeDefinition<string, never>;
  }
  if (plan.kind === 'body') {
    const run = (item: { data: Record<string, unknown> }) => {
      const element = (item.data.item ?? {}) as Partial<Element>;
      const action = bodyAction(plan, iri, Number(element.k ?? 0));
      if (action === 'throw503') throw Object.assign(new Error('HTTP 503 in body'), { status: 503 });
      if (action === 'throw400') throw Object.assign(new Error('HTTP 400 in body'), { status: 400 });
      item.data.result = action === 'same' ? 'same' : String(element.v ?? '?');
      return action === 'failed' ? 'failed' : 'ok';
    };
    return defineNode({
      id: iri,
      outputs: ['ok', 'failed'],
      run: plan.mode === 'sync' ? run : async (item) => run(item),
    }) as NodeDefinition<string, never>;
  }
  if (plan.mode === 'batch') {
    return defineNode({
      id: iri,
      outputs: TASK_OUTPUTS,
      maxBatch: 2,
      batch: (items, ctx) =>
        Promise.all(
          items.map((item, i) => {
            const context = ctx.contexts[i] as NodeContext;
            return act(plan, taskAction(plan, iri, item.id, context.visit), item, context);
          }),
        ),
    }) as NodeDefinition<string, never>;
  }
  if (plan.mode === 'sync') {
    return defineNode({
      id: iri,
      outputs: TASK_OUTPUTS,
      run: (item, ctx) => actNow(plan, taskAction(plan, iri, item.id, ctx.visit), item, ctx.placement),
    }) as NodeDefinition<string, never>;
  }
  return defineNode({
    id: iri,
    outputs: TASK_OUTPUTS,
    run: (item, ctx) => act(plan, taskAction(plan, iri, item.id, ctx.visit), item, ctx),
  }) as NodeDefinition<string, never>;
}
