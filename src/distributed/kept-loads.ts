/**
 * Loads kept by key, at most a given number, the most recently used kept: what a worker reads and prepares
 * once for every job that needs it (a run's spec, a spec's documents), without holding on to what every run
 * it ever carried needed. A load that failed is not kept, so the next caller tries again.
 */
export class KeptLoads<V> {
  private readonly kept = new Map<string, Promise<V>>();

  /** Keeps at most `most` loads. */
  constructor(private readonly most: number) {}

  /** What `key` loaded, or `load()`'s promise, kept, when it was not loaded or was let go. */
  of(key: string, load: () => Promise<V>): Promise<V> {
    const kept = this.kept.get(key);
    if (kept !== undefined) {
      // Most recently used last, so the first in the map is the one to let go.
      this.kept.delete(key);
      this.kept.set(key, kept);
      return kept;
    }
    const loading = load();
    this.kept.set(key, loading);
    loading.catch(() => {
      if (this.kept.get(key) === loading) this.kept.delete(key);
    });
    if (this.kept.size > this.most) this.kept.delete(this.kept.keys().next().value as string);
    return loading;
  }

  /** How many loads are kept. */
  get size(): number {
    return this.kept.size;
  }
}
