/**
 * Journal keys. An item inside an embed or a scatter records its steps in the journal of the input item it
 * descends from, under a key that spells its path: `draft/charge` is step `charge` of the document embedded
 * at placement `draft`; `fan[2:9c1e07aa31f0]/charge` is step `charge` of child 2 of scatter `fan`, whose list
 * element has the tag `9c1e07aa31f0` (see {@link elementTag}); frames nest (`fan[2:…]/draft/charge`). Step
 * keys and placement keys are escaped (`~` → `~0`, `/` → `~1`, `[` → `~2`), so that no step key can be read
 * as a path and two paths never share a key.
 *
 * A scatter child is named by its position and its element, so that a parent entering the scatter again
 * over the same list replays each child's steps, and a child given another element at that position (a
 * retry over a changed list) runs its steps for that element rather than getting another element's values.
 */
import { createHash } from 'node:crypto';
import { stringify } from 'devalue';
import { canonicalJson } from './canonical-json.ts';
import { isPlain } from './plain-copy.ts';

const SPECIAL = /[~/[]/;

/** The element tag of a scatter segment, as {@link scatterSegment} writes it. */
const TAGGED = /\[(\d+):[0-9a-f]+\]\//g;

/** A scatter segment that names the position only, as format 1 wrote it (`[` is escaped in every name). */
const POSITION_ONLY = /\[\d+\]\//;

function escapeSegment(name: string): string {
  return SPECIAL.test(name) ? name.replace(/~/g, '~0').replace(/\//g, '~1').replace(/\[/g, '~2') : name;
}

/** The scope segment of the document embedded at placement `placement`. */
export function embedSegment(placement: string): string {
  return `${escapeSegment(placement)}/`;
}

/** The scope segment of child `index` of the scatter at placement `placement`, whose list element is `element`. */
export function scatterSegment(placement: string, index: number, element: unknown): string {
  return `${escapeSegment(placement)}[${index}:${elementTag(element)}]/`;
}

/**
 * A short digest of a list element (12 hex digits of the SHA-256 of its canonical JSON, or of devalue's text
 * for what JSON cannot hold): JSON-equal elements have the same tag whatever the order of their keys.
 */
export function elementTag(element: unknown): string {
  let text: string;
  if (isPlain(element)) text = canonicalJson(element);
  else {
    try {
      text = `devalue:${stringify(element)}`;
    } catch {
      text = `other:${Object.prototype.toString.call(element)}`;
    }
  }
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}

/** The journal key of step `key` for an item at `scope` (undefined or '' for an input item). */
export function journalKey(scope: string | undefined, key: string): string {
  const own = escapeSegment(key);
  return scope === undefined || scope === '' ? own : scope + own;
}

/**
 * The key `id` had when scatter segments named only the position (`fan[2]/charge`), or undefined when `id`
 * names no scatter child: a step recorded under that key by an earlier version (a run resumed across an
 * upgrade, saved states run again) is still replayed.
 */
export function positionOnlyKey(id: string): string | undefined {
  if (!id.includes(':')) return undefined;
  const old = id.replace(TAGGED, '[$1]/');
  return old === id ? undefined : old;
}

/** True when journal key `id` names a scatter child by its position only, as format 1 spelt it. */
export function isPositionOnlyKey(id: string): boolean {
  return id.includes('[') && POSITION_ONLY.test(id);
}
