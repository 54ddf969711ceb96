/**
 * A slot's holder names the item's entries by a digest of its frames (`entryTag`): worked out only for a
 * placement the policy limits, and once per frames however often a job needs it; the holder and the gather
 * record's key keep their text.
 */
import { describe, expect, it } from 'vitest';
import { gatherKey } from '../../src/distributed/gather-record.ts';
import { entryTag, runKeys } from '../../src/distributed/keys.ts';
import { slotOf } from '../../src/distributed/slots.ts';
import { dag } from '../../src/document/builder.ts';
import { compile } from '../../src/graph/compile.ts';
import { resolvePolicy } from '../../src/policy/resolve.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import { createItemState, type ItemState } from '../../src/runtime/item-state.ts';
import { createRegistry } from '../../src/runtime/node.ts';
import { prepare } from '../../src/runtime/prepare.ts';
import type { PositionFrame } from '../../src/store/types.ts';

const doc = dag('urn:test:slot-holder', { name: 'slot-holder', version: '1' })
  .entry('work')
  .task('work', 'urn:test:work')
  .route('ok', 'done')
  .terminal('done', 'completed')
  .build();

const compiled = compile(doc);
const at = compiled.byKey.get('work');
const keys = runKeys('sy', 'run-1');

/** Frames whose every read of a field is counted in `reads`. */
function countedFrames(reads: { n: number }): readonly PositionFrame[] {
  const frame = { kind: 'embed', dag: 'urn:a', placement: 'draft', visit: 2 } as const;
  const counted = new Proxy(frame, {
    get(target, name, receiver) {
      reads.n += 1;
      return Reflect.get(target, name, receiver);
    },
  });
  return [counted];
}

function stateWith(frames: readonly PositionFrame[]): ItemState {
  return { ...createItemState('1/draft', {}), frames };
}

function slot(policy: PolicyInput, state: ItemState) {
  const resolved = resolvePolicy(policy);
  const prep = prepare(compiled, resolved, createRegistry([]));
  if (at === undefined) throw new Error('no placement work');
  return slotOf(resolved, prep, at, keys, state);
}

describe('a slot holder', () => {
  it('does not read the frames of an item at a placement without a limit', () => {
    const reads = { n: 0 };
    expect(slot({}, stateWith(countedFrames(reads)))).toBeUndefined();
    expect(reads.n).toBe(0);
  });

  it('names the item, its next visit and its entries at a limited placement', () => {
    const frames: readonly PositionFrame[] = [{ kind: 'embed', dag: 'urn:a', placement: 'draft', visit: 2 }];
    const found = slot({ placements: { work: { concurrency: 2 } } }, stateWith(frames));
    expect(found?.holder).toBe(`1/draft@1${entryTag(frames)}`);
    expect(found?.limit).toBe(2);
  });

  it('hashes the same frames once however often a job needs their tag', () => {
    const reads = { n: 0 };
    const frames = countedFrames(reads);
    const first = entryTag(frames);
    const after = reads.n;
    expect(after).toBeGreaterThan(0);
    expect(entryTag(frames)).toBe(first);
    expect(gatherKey('base', 'urn:d', stateWith(frames), 'fan', 1)).toBe(
      `base:gather:urn:d#fan:1/draft:1${first}`,
    );
    expect(reads.n).toBe(after);
  });

  it('keeps the text of the tag', () => {
    // The digest of the frames' path as it has always been written: in-flight runs keep their keys.
    const tag = entryTag([{ kind: 'scatter', dag: 'urn:a', placement: 'fan', visit: 1, index: 3 }]);
    expect(tag).toBe(':41d1ad8426eb9c2e');
  });
});
