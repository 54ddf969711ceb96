/**
 * A `Map` that is filled from its stored form when it is first read: a large structure loaded at start
 * (the catalog's search tree) makes only the parts a question reads. Every method that reads or changes the
 * map fills it first, so it behaves as the `Map` it would have been.
 */
export class StoredMap<K, V> extends Map<K, V> {
  #fill: ((add: (key: K, value: V) => void) => void) | undefined;

  /** `fill` adds the entries, in order, once: when the map is first read. */
  constructor(fill: (add: (key: K, value: V) => void) => void) {
    super();
    this.#fill = fill;
  }

  #made(): void {
    const fill = this.#fill;
    if (fill === undefined) return;
    this.#fill = undefined;
    fill((key, value) => {
      super.set(key, value);
    });
  }

  override get(key: K) {
    this.#made();
    return super.get(key);
  }
  override has(key: K) {
    this.#made();
    return super.has(key);
  }
  override get size() {
    this.#made();
    return super.size;
  }
  override keys() {
    this.#made();
    return super.keys();
  }
  override values() {
    this.#made();
    return super.values();
  }
  override entries() {
    this.#made();
    return super.entries();
  }
  override [Symbol.iterator]() {
    this.#made();
    return super.entries();
  }
  override forEach(each: (value: V, key: K, map: Map<K, V>) => void, self?: unknown) {
    this.#made();
    super.forEach(each, self);
  }
  override set(key: K, value: V) {
    this.#made();
    return super.set(key, value);
  }
  override delete(key: K) {
    this.#made();
    return super.delete(key);
  }
  override clear() {
    this.#made();
    super.clear();
  }
}
