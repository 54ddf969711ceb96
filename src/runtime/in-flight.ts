/**
 * The node calls in flight in one abort scope (a run, or a cancellable group of a scatter's children), as an
 * intrusive list: adding and removing a call allocates nothing, and the scope's signal has one listener for
 * all of them, which abandons every call still in the list when it aborts.
 */

/** A call the list can hold: its links, and what to do when its scope aborts. */
export interface Abandonable {
  prevCall: Abandonable | undefined;
  nextCall: Abandonable | undefined;
  /** The scope aborted with `reason` while the call was in the list (it has been taken out). */
  abandon(reason: unknown): void;
}

/** The calls in flight under one signal, abandoned in the order they started when it aborts. */
export class InFlight {
  private head: Abandonable | undefined;
  private tail: Abandonable | undefined;
  private listening = false;

  /** `source.signal` is read when the first call is added: a scope that never waits on a node makes none. */
  constructor(private readonly source: { readonly signal: AbortSignal }) {}

  /** Adds a call (its scope's signal has not aborted: the caller checks first). */
  add(call: Abandonable): void {
    if (!this.listening) {
      this.listening = true;
      const signal = this.source.signal;
      signal.addEventListener('abort', () => this.abandonAll(signal.reason), { once: true });
    }
    call.prevCall = this.tail;
    call.nextCall = undefined;
    if (this.tail === undefined) this.head = call;
    else this.tail.nextCall = call;
    this.tail = call;
  }

  /** Takes a call out of the list (it settled). */
  remove(call: Abandonable): void {
    if (call.prevCall === undefined && this.head !== call) return;
    const prev = call.prevCall;
    const next = call.nextCall;
    if (prev === undefined) this.head = next;
    else prev.nextCall = next;
    if (next === undefined) this.tail = prev;
    else next.prevCall = prev;
    call.prevCall = undefined;
    call.nextCall = undefined;
  }

  private abandonAll(reason: unknown): void {
    const calls: Abandonable[] = [];
    for (let call = this.head; call !== undefined; call = call.nextCall) calls.push(call);
    this.head = undefined;
    this.tail = undefined;
    for (const call of calls) {
      call.prevCall = undefined;
      call.nextCall = undefined;
    }
    for (const call of calls) call.abandon(reason);
  }
}
