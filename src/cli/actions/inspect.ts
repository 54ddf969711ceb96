import { hashDag } from '../../document/hash.ts';
import type { Route } from '../../document/model.ts';
import { type Count, computeBounds, countOf, formatCount } from '../../graph/bounds.ts';
import { compile } from '../../graph/compile.ts';
import { findCycles } from '../../graph/cycles.ts';
import type { GateWait } from '../../graph/gate-waits.ts';
import { type AwaitWait, worstCaseTime } from '../../graph/worst-time.ts';
import { formatDuration } from '../format.ts';
import type { CliIO } from '../io.ts';
import { loadValidDag } from '../load-one.ts';
import { loadPolicyFor } from '../policy-file.ts';
import { claimStdin, isDash, STDIN_NAME } from '../stdio.ts';

const count = formatCount;

/** A duration in whole ms: the usual units while a double holds it exactly, the exact digits beyond. */
function duration(ms: bigint): string {
  return ms <= BigInt(Number.MAX_SAFE_INTEGER) ? formatDuration(Number(ms)) : `${ms} ms`;
}

/**
 * JSON text in which every count is a JSON number with its exact digits, however large (a reader that parses
 * numbers as doubles rounds those beyond 2^53; one that reads big integers gets them exactly), and an
 * unbounded count is `null`, explained by `unboundedBecause`.
 */
function reportJson(report: unknown): string {
  const counts: bigint[] = [];
  const text = JSON.stringify(
    report,
    (_key, value: unknown) => {
      if (typeof value !== 'bigint') return value;
      counts.push(value);
      return `\u0000count:${counts.length - 1}`;
    },
    2,
  );
  return text.replace(/"\\u0000count:(\d+)"/g, (whole, index: string) =>
    Number(index) < counts.length ? String(counts[Number(index)]) : whole,
  );
}

function describeRoute(from: string, route: Route, maxes: ReadonlyMap<string, number>): string {
  const arrow = `${from} --${route.output}--> ${route.to}`;
  if (route.kind !== 'retry') return arrow;
  const max = route.budget === undefined ? undefined : maxes.get(route.budget);
  const resets = route.resets?.length ? `, resets ${route.resets.join(', ')}` : '';
  return `${arrow}  [${route.budget} ≤ ${max ?? '?'}, exhausted → ${route.exhausted}${resets}]`;
}

/** A wait of `ms` for people; beyond what minutes show exactly, in ms with its exponent. */
function waitFor(ms: number): string {
  return ms <= Number.MAX_SAFE_INTEGER ? formatDuration(ms) : `${ms.toPrecision(3)} ms`;
}

/**
 * What inspect says of the gates the item passes: per gated placement, the longest one visit of an item
 * alone waits, and that the deadline ends every wait (so the time above holds with other items queued).
 */
function gateLines(waits: readonly GateWait[], top: string): string[] {
  if (waits.length === 0) return [];
  const lines = ['', 'Gate waits, inside the deadlines above (one visit of an item alone at its gates):'];
  // The document's own placements first, then those of the documents it embeds.
  const ordered = [...waits].sort((a, b) => Number(a.dag !== top) - Number(b.dag !== top));
  for (const w of ordered) {
    const where = w.dag === top ? w.placement : `${w.dag}#${w.placement}`;
    const visits = `${count(w.visits)} visits${w.dag === top ? '' : ' per run of its document'}`;
    const parts = [
      ...(w.closedMs > 0 ? [`closed ≤ ${waitFor(w.closedMs)}`] : []),
      ...(w.intervalMs > 0 ? [`pace ${waitFor(w.intervalMs)}`] : []),
    ];
    const each = parts.length === 0 ? 'no wait' : `≤ ${waitFor(w.aloneMs)} (${parts.join(', ')})`;
    const cut =
      w.deadlineMs === undefined
        ? '; no deadline ends a longer wait'
        : w.aloneMs > w.deadlineMs
          ? `; its ${waitFor(w.deadlineMs)} deadline ends a longer wait (the item takes its timeout route)`
          : '';
    lines.push(`  gate ${w.gate} at ${where}: ${visits}, each ${each}${cut}`);
  }
  lines.push(
    '  Behind other items (every run and worker shares a gate) a wait grows by one pace interval per start ahead and by',
    '  their closings; the document cannot bound that, the deadline ends it, so the worst-case time holds.',
  );
  return lines;
}

/**
 * What inspect says of the await placements: per await, the deadline that ends each visit's wait (an answer
 * ends it sooner), its visits and their sum, which the worst-case time above counts.
 */
function awaitLines(waits: readonly AwaitWait[], top: string): string[] {
  if (waits.length === 0) return [];
  const lines = ['', 'Await waits, each ended by its deadline when no answer comes (counted above):'];
  const ordered = [...waits].sort((a, b) => Number(a.dag !== top) - Number(b.dag !== top));
  for (const w of ordered) {
    const where = w.dag === top ? w.placement : `${w.dag}#${w.placement}`;
    const visits = `${count(w.visits)} visits${w.dag === top ? '' : ' per run of its document'}`;
    const each =
      w.deadlineMs === undefined
        ? 'no deadline, so a wait nobody answers never ends; set deadlineMs for it in the policy'
        : `each ≤ ${waitFor(w.deadlineMs)}${w.visits === null ? '' : `, ≤ ${waitFor(w.deadlineMs * Number(w.visits))} in all`}`;
    lines.push(`  await ${where}: ${visits}, ${each}`);
  }
  return lines;
}

/** `switchyard inspect <dag> [--policy p.json] [--json]`: structure, loops with their bounds, worst cases. */
export async function inspectAction(
  file: string,
  options: { policy?: string; json?: boolean },
  io: CliIO,
): Promise<void> {
  claimStdin([
    { flag: '<dag> -', used: isDash(file) },
    { flag: '--policy -', used: isDash(options.policy) },
  ]);
  const { dag, library } = await loadValidDag(file, io);
  const compiled = compile(dag);
  const bounds = computeBounds(compiled, library);
  const loops = findCycles(compiled);
  const policy =
    options.policy === undefined ? undefined : await loadPolicyFor(options.policy, io, { dag, library });
  const time = policy ? worstCaseTime(compiled, bounds, policy, library) : undefined;
  const hash = await hashDag(dag);
  const routes = dag.placements.flatMap((p) => p.routes.map((route) => ({ from: p.key, route })));

  if (options.json) {
    io.out(
      reportJson({
        id: dag.id,
        name: dag.name,
        version: dag.version,
        hash,
        placements: dag.placements.map((p) => ({
          key: p.key,
          kind: p.kind,
          ...(p.kind === 'await' ? { answers: p.answers } : {}),
          worstCaseExecutions: countOf(bounds.perPlacement, p.key),
        })),
        routes: routes.map(({ from, route }) => ({ from, ...route })),
        loops,
        worstCaseExecutionsPerItem: bounds.total,
        worstCaseTimeMs: time ? (time.totalMs ?? null) : undefined,
        gateWaits: time?.gateWaits,
        awaitWaits: time?.awaitWaits,
        unboundedBecause: time?.unboundedBecause ?? bounds.unboundedBecause,
      }),
    );
    return;
  }

  const maxes = new Map<string, number>();
  for (const b of dag.budgets) if (!maxes.has(b.name)) maxes.set(b.name, b.max);
  const out: string[] = [];
  out.push(`${dag.name}  ${dag.id}  v${dag.version}`, `hash ${hash}`, '');
  out.push(`Placements (${dag.placements.length})                worst-case executions per item`);
  for (const p of dag.placements) {
    const what =
      'node' in p && p.node
        ? p.node
        : 'dag' in p && p.dag
          ? p.dag
          : p.kind === 'terminal'
            ? p.outcome
            : p.kind === 'await'
              ? `answers ${p.answers.join(' | ')}`
              : '';
    const child = bounds.children.get(p.key);
    const extra = child === undefined ? '' : `  (+ ${count(child)} per scattered child)`;
    out.push(
      `  ${p.key.padEnd(16)} ${p.kind.padEnd(9)} ${count(countOf(bounds.perPlacement, p.key)).padStart(4)}  ${what}${extra}`,
    );
  }
  for (const kind of ['next', 'retry', 'salvage'] as const) {
    const ofKind = routes.filter((r) => r.route.kind === kind);
    out.push('', `Routes: ${kind} (${ofKind.length})`);
    for (const { from, route } of ofKind) out.push(`  ${describeRoute(from, route, maxes)}`);
  }
  out.push(
    '',
    `Loops (${loops.filter((l) => l.routes.length > 0).length}), each closed by a budgeted retry route`,
  );
  for (const loop of loops) {
    if (loop.routes.length === 0) {
      out.push(`  budget ${loop.budget} ≤ ${loop.max}: spent by no route`);
      continue;
    }
    const spends: Count = countOf(bounds.spends, loop.budget, BigInt(loop.max));
    const resetNote = spends !== BigInt(loop.max) ? ` (≤ ${count(spends)} per item with resets)` : '';
    out.push(`  budget ${loop.budget} ≤ ${loop.max}${resetNote}: ${loop.placements.join(', ')}`);
    for (const r of loop.routes)
      out.push(`    ${r.from} --${r.output}--> ${r.to}, exhausted → ${r.exhausted ?? '?'}`);
  }
  out.push('', `Worst case per item: ${count(bounds.total)} placement executions`);
  if (bounds.unboundedBecause) out.push(`  unbounded: ${bounds.unboundedBecause}`);
  if (bounds.loose) {
    out.push('  (upper bounds: the graph is too wide to sum its loops exactly in linear time)');
  }
  if (time) {
    const parts = [...time.perPlacement.values()].reduce((sum, ms) => sum + ms, 0n) + time.backoffMs;
    const why = time.cappedByRunDeadline
      ? ` (the run deadline; executions and waits could add up to ${duration(parts)})`
      : ` (executions ${duration(parts - time.backoffMs)}, back-off waits ${duration(time.backoffMs)})`;
    out.push(
      time.totalMs === undefined
        ? `Worst-case time per item: unbounded — ${time.unboundedBecause ?? 'no deadline'}; set deadlines in the policy`
        : `Worst-case time per item with ${isDash(options.policy) ? STDIN_NAME : options.policy}: ${duration(time.totalMs)}${why}`,
    );
    out.push(...gateLines(time.gateWaits, dag.id));
    out.push(...awaitLines(time.awaitWaits, dag.id));
  }
  io.out(out.join('\n'));
}
