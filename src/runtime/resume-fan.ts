/**
 * A parent parked on its fan out, as a durable run records it and a resumed run finds it again. When a
 * scatter or an embed fans out, the parent's checkpoint says so (`fan` in its state: the visit it fanned out
 * at, how many children, when the placement started); a resume rebuilds the same fan out from that
 * checkpoint — the children are a pure function of the parked parent (see `fanChildren`) — and parks the
 * parent on it again. The children then go on from their own checkpoints (an ended child's ending counts it
 * off at once), and the parent's step does not run again: no second `placement.start`, no visit counted
 * twice, as a child actor's state held in its parent's snapshot is all a restart of an actor needs.
 */
import { wallElapsed } from '../policy/clock.ts';
import type { CheckpointState } from '../store/types.ts';
import { fanChildren } from './fan-out.ts';
import type { RunContext } from './runner.ts';
import { type FanOut, type ItemAt, type Transition, transit } from './step.ts';

/** A fan out as its parent's checkpoint records it (the `fan` field of the checkpoint's state). */
export interface ParkedFan {
  /** The parent's visit of the placement it fanned out at (its children's frames name it). */
  readonly visit: number;
  /** How many children it fanned out. */
  readonly children: number;
  /** The wall time the placement started, for its `placement.end` once the parent goes on. */
  readonly since: number;
}

/** What a parent's checkpoint records of the fan out `fan`, made as the parent parks (wall time `now`). */
export function parkedFan(fan: FanOut, now: number): ParkedFan {
  return { visit: fan.visit, children: fan.count, since: now };
}

/**
 * The fan out a checkpoint's state records, or undefined when it records none: an item that was not parked
 * on children, or a parent recorded by an engine that kept a parent active at its scatter or embed (that
 * parent enters the placement again, and its children find their checkpoints by id and frames).
 */
export function parkedFanOf(state: CheckpointState): ParkedFan | undefined {
  const fan = state.fan as Partial<Record<keyof ParkedFan, unknown>> | null | undefined;
  if (fan === null || typeof fan !== 'object') return undefined;
  const { visit, children, since } = fan;
  if (typeof visit !== 'number' || typeof children !== 'number' || typeof since !== 'number')
    return undefined;
  return { visit, children, since };
}

/**
 * The fan out parent `item` was parked on before the restart, made again from its checkpoint without
 * running its step (its visit is the recorded one, and no `placement.start` is reported); the placement's
 * `placement.end` counts from the recorded start. The transition instead when the children cannot be made
 * (as the step would take it); the same document and data made them before, so that happens only to a
 * checkpoint that no longer fits its document. Throws (the item fails with `E_ENGINE`) when the children
 * made are not as many as the checkpoint records.
 */
export function refannedOut(run: RunContext, item: ItemAt, parked: ParkedFan): FanOut | Transition {
  const { clock } = run;
  const started = clock.now() - wallElapsed(clock, parked.since);
  item.carry.waiting = 'node';
  const children = fanChildren(run, item, parked.visit);
  if ('error' in children) return transit(run, item, children, started);
  const count = children.kind === 'scatter' ? children.list.length : 1;
  if (count !== parked.children) {
    throw new Error(
      `item ${item.state.id} was parked at '${item.at.key}' on ${parked.children} children, but its checkpoint makes ${count}`,
    );
  }
  return { kind: 'fan out', item, children, count, visit: parked.visit, started };
}
