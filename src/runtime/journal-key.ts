/**
 * Journal keys. An item inside an embed or a scatter records its steps in the journal of the input item it
 * descends from, under a key that spells its path: `draft/charge` is step `charge` of the document embedded
 * at placement `draft`; `fan[2]/charge` is step `charge` of child 2 of scatter `fan`; frames nest
 * (`fan[2]/draft/charge`). Step keys and placement keys are escaped (`~` → `~0`, `/` → `~1`, `[` → `~2`), so
 * that no step key can be read as a path and two paths never share a key.
 */

const SPECIAL = /[~/[]/;

function escapeSegment(name: string): string {
  return SPECIAL.test(name) ? name.replace(/~/g, '~0').replace(/\//g, '~1').replace(/\[/g, '~2') : name;
}

/** The scope segment of the document embedded at placement `placement`. */
export function embedSegment(placement: string): string {
  return `${escapeSegment(placement)}/`;
}

/** The scope segment of child `index` of the scatter at placement `placement`. */
export function scatterSegment(placement: string, index: number): string {
  return `${escapeSegment(placement)}[${index}]/`;
}

/** The journal key of step `key` for an item at `scope` (undefined or '' for an input item). */
export function journalKey(scope: string | undefined, key: string): string {
  const own = escapeSegment(key);
  return scope === undefined || scope === '' ? own : scope + own;
}
