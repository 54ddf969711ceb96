/**
 * Snapshots of the built-in prototypes, to see whether a case added, removed or replaced anything on them,
 * and to put them back so that one polluting case does not spoil the cases after it.
 */

const WATCHED: readonly [string, object][] = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
  ['String.prototype', String.prototype],
  ['Number.prototype', Number.prototype],
  ['Boolean.prototype', Boolean.prototype],
  ['Map.prototype', Map.prototype],
  ['Promise.prototype', Promise.prototype],
  ['Error.prototype', Error.prototype],
];

/** Keys a polluting write would typically add; read through a fresh object, they must all be undefined. */
const TELL_TALES = ['polluted', 'p', 'v', 'fuzz', 'x', 'a', 'isAdmin'];

type Snapshot = Map<string, Map<string | symbol, PropertyDescriptor>>;

/** The own property descriptors of every watched prototype. */
export function snapshotPrototypes(): Snapshot {
  const snapshot: Snapshot = new Map();
  for (const [name, proto] of WATCHED) {
    const own = new Map<string | symbol, PropertyDescriptor>();
    for (const key of Reflect.ownKeys(proto)) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, key);
      if (descriptor) own.set(key, descriptor);
    }
    snapshot.set(name, own);
  }
  return snapshot;
}

const same = (a: PropertyDescriptor, b: PropertyDescriptor) =>
  a.value === b.value && a.get === b.get && a.set === b.set && a.writable === b.writable;

/**
 * What changed on the prototypes since `before`, one line per change (empty when nothing did). The
 * prototypes are restored to `before` as a side effect, so the next case starts clean.
 */
export function prototypeChanges(before: Snapshot): string[] {
  const changes: string[] = [];
  for (const [name, proto] of WATCHED) {
    const was = before.get(name) as Map<string | symbol, PropertyDescriptor>;
    for (const key of Reflect.ownKeys(proto)) {
      const now = Object.getOwnPropertyDescriptor(proto, key) as PropertyDescriptor;
      const old = was.get(key);
      if (old === undefined) {
        changes.push(`${name}.${String(key)} was added (${describe(now.value)})`);
        Reflect.deleteProperty(proto, key);
      } else if (!same(old, now)) {
        changes.push(`${name}.${String(key)} was replaced (${describe(now.value)})`);
        Object.defineProperty(proto, key, old);
      }
    }
    for (const key of was.keys()) {
      if (!Reflect.ownKeys(proto).includes(key)) {
        changes.push(`${name}.${String(key)} was removed`);
        Object.defineProperty(proto, key, was.get(key) as PropertyDescriptor);
      }
    }
  }
  const fresh: Record<string, unknown> = {};
  for (const key of TELL_TALES) {
    if (fresh[key] !== undefined) changes.push(`({}).${key} is ${describe(fresh[key])}`);
  }
  return changes;
}

function describe(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  try {
    return JSON.stringify(value)?.slice(0, 60) ?? String(value);
  } catch {
    return typeof value;
  }
}
