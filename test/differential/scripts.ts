/**
 * How the generator draws what nodes do: the actions of a task node on each visit (answers, retries with
 * and without Retry-After, classified throws, hangs, stray outputs), and the endings of scatter bodies.
 */
import { feature, type Gen } from './draw.ts';
import type { Action, BodyAction, Hint, TaskPlan } from './plans.ts';

function drawHint(g: Gen): Hint {
  return g.draw.weighted<Hint>([
    [{ ms: g.draw.int(3, 30) }, 4],
    [{ ms: 200 }, 1],
    [{ header: '0' }, 1.5],
    [{ header: 'Wed, 21 Oct 2015 07:28:00 GMT' }, 1.5],
    [{ bad: 'soon' }, 1],
  ]);
}

/** One action of a task whose routed outputs are `routed`. */
function drawAction(
  g: Gen,
  routed: ReadonlySet<string>,
  plan: Pick<TaskPlan, 'mode'>,
  timed: boolean,
): Action {
  const again = routed.has('again');
  const canThrow = plan.mode !== 'batch';
  const kind = g.draw.weighted<Action['kind'] | 'alt'>([
    ['go', 4],
    ['alt', routed.has('alt') ? 1 : 0],
    ['again', again ? 3 : 0],
    ['throw', canThrow ? 2.5 : 0],
    ['hang', timed ? 2 : 0],
    ['stray', 0.15],
    ['long', g.runDeadline && again && plan.mode === 'async' ? 3 : 0],
  ]);
  switch (kind) {
    case 'go':
      return { kind: 'go', output: 'go' };
    case 'alt':
      return { kind: 'go', output: 'alt' };
    case 'again':
      return g.draw.chance(0.6) ? { kind: 'again', hint: drawHint(g) } : { kind: 'again' };
    case 'throw': {
      const code = g.draw.chance(0.2) ? 'ECONNRESET' : undefined;
      if (code !== undefined) return { kind: 'throw', code };
      const status = g.draw.pick([503, 429, 400, 500]);
      if ((status === 503 || status === 429) && g.draw.chance(0.6)) {
        return { kind: 'throw', status, hint: drawHint(g) };
      }
      return { kind: 'throw', status };
    }
    default:
      return { kind } as Action;
  }
}

/** Scripts of 1–3 visits, most of them answering on their last visit (success on the Nth try). */
export function drawScripts(
  g: Gen,
  routed: ReadonlySet<string>,
  plan: Pick<TaskPlan, 'mode'>,
  timed: boolean,
) {
  const scripts: Action[][] = [];
  for (let s = g.draw.int(1, 3); s > 0; s--) {
    const actions: Action[] = [];
    for (let n = g.draw.int(1, 3); n > 1; n--) actions.push(drawAction(g, routed, plan, timed));
    actions.push(g.draw.chance(0.8) ? { kind: 'go', output: 'go' } : drawAction(g, routed, plan, timed));
    scripts.push(actions);
  }
  return scripts;
}

/** What scripts show of a case's features. */
export function scriptFeatures(g: Gen, scripts: readonly (readonly Action[])[]): void {
  for (const script of scripts) {
    const last = script.at(-1);
    if (script.length > 1 && last?.kind === 'go') feature(g, 'succeeds on the Nth try');
    for (const a of script) {
      if ((a.kind === 'again' || a.kind === 'throw') && a.hint !== undefined) feature(g, 'Retry-After hint');
      if (a.kind === 'throw')
        feature(g, a.code === undefined ? `throws HTTP ${a.status}` : `throws ${a.code}`);
      if (a.kind === 'hang') feature(g, 'node hangs past its placement deadline');
      if (a.kind === 'stray') feature(g, 'unrouted output');
      if (a.kind === 'long') feature(g, 'wait longer than the run deadline leaves');
    }
  }
}

export const BODY_ACTIONS: readonly (readonly [BodyAction, number])[] = [
  ['ok', 4],
  ['same', 1],
  ['failed', 1.5],
  ['throw503', 1],
  ['throw400', 0.7],
];
