/**
 * What `switchyard runs` and `runs show` print, as plain JSON built from a store's records: a row per run,
 * and a run with each item's place, retries, waits and spent budgets. The text forms are drawn from these.
 */

import type { ParkedItem } from '../../awaits/desk.ts';
import { SwitchyardError } from '../../errors.ts';
import { isLive } from '../../store/lease.ts';
import type {
  ItemCheckpoint,
  ItemEnding,
  ItemPosition,
  RunRecord,
  RunStatus,
  RunStore,
} from '../../store/types.ts';
import type { AnswerCommandContext } from '../parked.ts';
import { type ParkedView, type PendingAnswerView, parkedViews, pendingAnswers } from './await-views.ts';
import { GateDigest, type GateKeyStateView, type GateWaitView } from './gate-views.ts';

/** One run in a listing. */
export interface RunRow {
  readonly id: string;
  readonly status: RunStatus;
  readonly dag: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601, once the run ended. */
  readonly finishedAt?: string;
  /** From creation to the end, once the run ended. */
  readonly durationMs?: number;
  /** The number of input items, when the run record says it. */
  readonly items?: number;
}

/** A retry wait that an item went through, from a `retry.scheduled` event. */
export interface PastWait {
  /** The placement whose retry route was taken. */
  readonly placement: string;
  readonly budget: string;
  readonly attempt?: number;
  readonly delayMs: number;
  readonly source?: string;
}

/** One item of a run as `runs show` reports it. */
export interface ItemView {
  readonly id: string;
  readonly status: ItemCheckpoint['status'];
  /** Where the item is (or stood when it ended). */
  readonly position: {
    readonly dag: string;
    readonly placement: string;
    readonly visit: number;
    /** The embeds and scatters above the placement, outermost first: `draft`, `fan[2]`. */
    readonly path: readonly string[];
  };
  readonly ending?: ItemEnding;
  /** The wait in progress: until when (ISO 8601) and why. */
  readonly wait?: { readonly until: string; readonly reason: string };
  /** Retries taken: `retry.scheduled` events of the item, or retry entries of its trail without events. */
  readonly retries: number;
  readonly waits: readonly PastWait[];
  /** The gate the item waits at before its execution starts, when its last event is a `gate.wait`. */
  readonly gate?: GateWaitView;
  /** Budget name → how much of it the item spent. */
  readonly budgets: Readonly<Record<string, number>>;
  readonly updatedAt: string;
  /** An input item's data as its checkpoint holds it (its result, once it ended); not for child items. */
  readonly data?: unknown;
}

/** A run as `runs show` reports it. */
export interface RunView {
  readonly id: string;
  readonly status: RunStatus;
  readonly dag: { readonly iri: string; readonly hash: string; readonly file?: string };
  readonly documents: readonly { readonly iri: string; readonly hash: string; readonly file?: string }[];
  readonly policyHash: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly finishedAt?: string;
  readonly durationMs?: number;
  readonly formatVersion: number;
  readonly engineVersion: string;
  readonly options: unknown;
  /** The lease on the run, when a process holds or held one: live until `expiresAt` (ISO 8601). */
  readonly lease?: {
    readonly pid: number;
    readonly host: string;
    readonly expiresAt: string;
    readonly live: boolean;
  };
  readonly items: readonly ItemView[];
  /** Each gate key the run's events name, as it stands. */
  readonly gates: readonly GateKeyStateView[];
  /** The items parked at await placements, with their tokens and the command that answers each. */
  readonly parked: readonly ParkedView[];
  /** Answers recorded in the store that their items have not taken yet. */
  readonly answers: readonly PendingAnswerView[];
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** The number of input items a run record names: `options.items`, else the length of its input list. */
function itemCount(run: RunRecord): number | undefined {
  const items = (run.options as { items?: unknown } | null | undefined)?.items;
  if (typeof items === 'number') return items;
  return Array.isArray(run.input) ? run.input.length : undefined;
}

/** A run's row in a listing. */
export function runRow(run: RunRecord): RunRow {
  const items = itemCount(run);
  return {
    id: run.id,
    status: run.status,
    dag: run.dag.iri,
    createdAt: iso(run.createdAt),
    ...(run.finishedAt === undefined
      ? {}
      : { finishedAt: iso(run.finishedAt), durationMs: run.finishedAt - run.createdAt }),
    ...(items === undefined ? {} : { items }),
  };
}

/** The run `runId`, or `E_RESUME_UNKNOWN_RUN` naming the store and the command that lists its runs. */
export async function findRun(
  store: RunStore,
  runId: string,
  shown: string,
  list = 'switchyard runs',
): Promise<RunRecord> {
  const run = await store.getRun(runId);
  if (run === undefined) {
    throw new SwitchyardError(
      'E_RESUME_UNKNOWN_RUN',
      `no run '${runId}' in ${shown}: list the recorded runs with \`${list}\``,
    );
  }
  return run;
}

/** The frames of a position as short names: an embed by its placement, a scatter child with its index. */
export function framePath(position: ItemPosition): string[] {
  return position.frames.map((f) => (f.kind === 'scatter' ? `${f.placement}[${f.index}]` : f.placement));
}

/** What `runs show` reads from a run's events: retries and past waits per item, and its gates. */
interface EventDigest {
  readonly retries: Map<string, PastWait[]>;
  readonly gates: GateDigest;
  /** The tokens `await.answered` events name: answers taken. */
  readonly taken: Set<string>;
}

/** Reads the run's events once: its `retry.scheduled` events by item, and its gate events. */
async function digestEvents(store: RunStore, runId: string): Promise<EventDigest> {
  const retries = new Map<string, PastWait[]>();
  const gates = new GateDigest();
  const taken = new Set<string>();
  for await (const record of store.streamEvents(runId)) {
    if (typeof record.body !== 'object' || record.body === null) continue;
    const body = record.body as Record<string, unknown>;
    gates.add(record.type, body);
    if (record.type === 'await.answered' && typeof body.token === 'string') taken.add(body.token);
    if (record.type !== 'retry.scheduled') continue;
    if (typeof body.item !== 'string' || typeof body.delayMs !== 'number') continue;
    const waits = retries.get(body.item) ?? [];
    waits.push({
      placement: String(body.from ?? ''),
      budget: String(body.budget ?? ''),
      ...(typeof body.attempt === 'number' ? { attempt: body.attempt } : {}),
      delayMs: body.delayMs,
      ...(typeof body.delaySource === 'string' ? { source: body.delaySource } : {}),
    });
    retries.set(body.item, waits);
  }
  return { retries, gates, taken };
}

/** The retry entries of an item's trail, for runs whose events were not recorded. */
function trailRetries(checkpoint: ItemCheckpoint): number {
  return checkpoint.state.trail.filter(
    (step) => typeof step === 'object' && step !== null && (step as { kind?: unknown }).kind === 'retry',
  ).length;
}

/** The budgets an item spent, without the ones at zero. */
function spentBudgets(checkpoint: ItemCheckpoint): Record<string, number> {
  const spent: Record<string, number> = {};
  for (const [name, count] of Object.entries(checkpoint.state.budgets ?? {})) {
    if (typeof count === 'number' && count !== 0) spent[name] = count;
  }
  return spent;
}

/** Whether an item id names an input item: children are `1.0` (scatter) or `1/answer` (embed). */
function isInputItem(itemId: string): boolean {
  return !itemId.includes('.') && !itemId.includes('/');
}

function itemView(checkpoint: ItemCheckpoint, events: EventDigest, hasEvents: boolean): ItemView {
  const { position } = checkpoint;
  const waits = events.retries.get(checkpoint.itemId);
  const gate = checkpoint.status === 'ended' ? undefined : events.gates.waitOf(checkpoint.itemId);
  return {
    id: checkpoint.itemId,
    status: checkpoint.status,
    position: {
      dag: position.dag,
      placement: position.placement,
      visit: position.visit,
      path: framePath(position),
    },
    ...(checkpoint.ending === undefined ? {} : { ending: checkpoint.ending }),
    ...(position.wait === undefined
      ? {}
      : { wait: { until: iso(position.wait.until), reason: position.wait.reason } }),
    retries: hasEvents ? (waits?.length ?? 0) : trailRetries(checkpoint),
    waits: waits ?? [],
    ...(gate === undefined ? {} : { gate }),
    budgets: spentBudgets(checkpoint),
    updatedAt: iso(checkpoint.updatedAt),
    // A child's data is a slice of its parent's work; an input item's is what a reader asked and got.
    ...(isInputItem(checkpoint.itemId) ? { data: checkpoint.state.data } : {}),
  };
}

/**
 * Everything `runs show` says about a run: its record, its lease and its gate keys as they stand at wall
 * time `now`, each item's checkpoint, retries and the gate it waits at, its items parked at awaits (with
 * the commands that answer them, as `answering` says where the run is stored; `held`: the items a
 * distributed run's workers hold parked) and the answers not yet taken.
 */
export async function runView(
  store: RunStore,
  run: RunRecord,
  now: number,
  answering: AnswerCommandContext = { cwd: process.cwd() },
  held: readonly ParkedItem[] = [],
): Promise<RunView> {
  const [checkpoints, events, lastSeq, lease, answers] = await Promise.all([
    store.listCheckpoints(run.id),
    digestEvents(store, run.id),
    store.lastEventSeq(run.id),
    store.getLease(run.id),
    store.listAnswers(run.id),
  ]);
  const ended = new Set(checkpoints.filter((c) => c.status === 'ended').map((c) => c.itemId));
  const doc = (d: RunRecord['dag']) => ({
    iri: d.iri,
    hash: d.hash,
    ...(d.file === undefined ? {} : { file: d.file }),
  });
  return {
    id: run.id,
    status: run.status,
    dag: doc(run.dag),
    documents: run.documents.map(doc),
    policyHash: run.policy.hash,
    createdAt: iso(run.createdAt),
    updatedAt: iso(run.updatedAt),
    ...(run.finishedAt === undefined
      ? {}
      : { finishedAt: iso(run.finishedAt), durationMs: run.finishedAt - run.createdAt }),
    formatVersion: run.formatVersion,
    engineVersion: run.engineVersion,
    options: run.options,
    ...(lease === undefined
      ? {}
      : {
          lease: {
            pid: lease.pid,
            host: lease.host,
            expiresAt: iso(lease.expiresAt),
            live: isLive(lease, now),
          },
        }),
    items: checkpoints.map((c) => itemView(c, events, lastSeq !== undefined)),
    gates: events.gates.keys(now, (item) => !ended.has(item)),
    parked: parkedViews(run.id, checkpoints, answering, now, held),
    answers: pendingAnswers(answers, events.taken),
  };
}
