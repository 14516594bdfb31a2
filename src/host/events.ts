/**
 * VS Code-free building blocks for events and disposal (the shape of `vscode.Event` / `vscode.Disposable`,
 * so adapters can pass these straight through). One disposal idiom everywhere (VS Code's own, from its
 * `lifecycle.ts`): a class owning things extends `Disposable` and `_register`s them; a keyed set of live things is a
 * `DisposableMap`; a one-off cleanup is `toDisposable(fn)`. A tracker (`setDisposableTracker`, used by the test
 * suites' leak check) sees every `Emitter`, subscription and `Disposable` created and disposed.
 */

/** Something that can be released. */
export interface IDisposable {
  dispose(): void;
}

/** Watches creation and disposal (VS Code's `IDisposableTracker`): the test suites' leak check installs one. */
export interface IDisposableTracker {
  trackDisposable(d: IDisposable): void;
  /** `child` is owned by `parent` (disposed with it); `null`: owned by nobody again. */
  setParent(child: IDisposable, parent: IDisposable | null): void;
  markAsDisposed(d: IDisposable): void;
}

let tracker: IDisposableTracker | null = null;

/** Installs (or, with `null`, removes) the tracker. */
export function setDisposableTracker(t: IDisposableTracker | null): void {
  tracker = t;
}

function trackDisposable<T extends IDisposable>(d: T): T {
  tracker?.trackDisposable(d);
  return d;
}

function markAsDisposed(d: IDisposable): void {
  tracker?.markAsDisposed(d);
}

/** A disposable running `fn` once. */
export function toDisposable(fn: () => void): IDisposable {
  let done = false;
  const d: IDisposable = {
    dispose() {
      if (done) return;
      done = true;
      markAsDisposed(d);
      fn();
    },
  };
  return trackDisposable(d);
}

/** A subscribable event: call it with a listener, dispose the result to unsubscribe. */
export type Event<T> = (listener: (e: T) => void) => IDisposable;

/**
 * Runs `listener` once per burst of `event`: `ms` after its last firing (each firing starts the wait again).
 * Disposing unsubscribes and drops a pending run. For work that follows changes but that nobody waits on.
 */
export function onSettled(event: Event<unknown>, ms: number, listener: () => void): IDisposable {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const sub = event(() => {
    clearTimeout(timer);
    timer = setTimeout(listener, ms);
  });
  return toDisposable(() => {
    clearTimeout(timer);
    sub.dispose();
  });
}

/** A minimal event emitter. Listener errors are isolated: one bad listener never stops the others. */
export class Emitter<T> implements IDisposable {
  /** Each listener with its subscription (a subscription of a disposed emitter counts as disposed). */
  private listeners = new Map<(e: T) => void, IDisposable>();
  private disposed = false;

  constructor() {
    trackDisposable(this);
  }

  /** The event to hand out. */
  readonly event: Event<T> = (listener) => {
    if (this.disposed) return { dispose() {} };
    // The same function subscribed twice is one listener: disposing either subscription removes it.
    const sub = toDisposable(() => {
      const current = this.listeners.get(listener);
      this.listeners.delete(listener);
      if (current && current !== sub) markAsDisposed(current);
    });
    // A leaked subscription of a leaked emitter is reported as the emitter.
    tracker?.setParent(sub, this);
    const old = this.listeners.get(listener);
    this.listeners.set(listener, sub);
    if (old) markAsDisposed(old);
    return sub;
  };

  fire(value: T): void {
    for (const l of [...this.listeners.keys()]) {
      try {
        l(value);
      } catch (e) {
        console.error('[zut] event listener failed:', e);
      }
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const sub of this.listeners.values()) markAsDisposed(sub);
    this.listeners.clear();
    markAsDisposed(this);
  }
}

function disposeAll(ds: Iterable<IDisposable>): void {
  for (const d of ds) {
    try {
      d.dispose();
    } catch (e) {
      console.error('[zut] dispose failed:', e);
    }
  }
}

/** A base class that owns disposables registered with `_register` and releases them in reverse order. */
export abstract class Disposable implements IDisposable {
  private readonly toDispose: IDisposable[] = [];
  private isDisposed = false;

  constructor() {
    trackDisposable(this);
  }

  protected _register<T extends IDisposable>(d: T): T {
    if ((d as IDisposable) === this) throw new Error('cannot register a disposable on itself');
    if (this.isDisposed) d.dispose();
    else {
      tracker?.setParent(d, this);
      this.toDispose.push(d);
    }
    return d;
  }

  protected get disposed(): boolean {
    return this.isDisposed;
  }

  dispose(): void {
    if (this.isDisposed) return;
    this.isDisposed = true;
    markAsDisposed(this);
    disposeAll(this.toDispose.splice(0).reverse());
  }
}

/**
 * Live disposables by key (VS Code's `DisposableMap`): setting a key disposes what it held, `deleteAndDispose`
 * releases one, `dispose` all of them.
 */
export class DisposableMap<K, V extends IDisposable = IDisposable> implements IDisposable {
  private readonly map = new Map<K, V>();
  private isDisposed = false;

  constructor() {
    trackDisposable(this);
  }

  get size(): number {
    return this.map.size;
  }
  has(key: K): boolean {
    return this.map.has(key);
  }
  get(key: K): V | undefined {
    return this.map.get(key);
  }
  keys(): IterableIterator<K> {
    return this.map.keys();
  }
  values(): IterableIterator<V> {
    return this.map.values();
  }
  entries(): IterableIterator<[K, V]> {
    return this.map.entries();
  }

  /** Holds `value` under `key` (what the key held before is disposed); after `dispose`, `value` is disposed at once. */
  set(key: K, value: V): void {
    if (this.isDisposed) {
      value.dispose();
      return;
    }
    const old = this.map.get(key);
    this.map.set(key, value);
    tracker?.setParent(value, this);
    if (old && old !== value) disposeAll([old]);
  }

  /** Releases the value under `key`, if any. */
  deleteAndDispose(key: K): void {
    const old = this.map.get(key);
    this.map.delete(key);
    if (old) disposeAll([old]);
  }

  /** Forgets the value under `key` without disposing it (its new owner will); returns it. */
  deleteAndLeak(key: K): V | undefined {
    const old = this.map.get(key);
    this.map.delete(key);
    if (old) tracker?.setParent(old, null);
    return old;
  }

  /** Disposes every value (in insertion order) and empties the map. */
  clearAndDispose(): void {
    const values = [...this.map.values()];
    this.map.clear();
    disposeAll(values);
  }

  dispose(): void {
    if (this.isDisposed) return;
    this.isDisposed = true;
    markAsDisposed(this);
    this.clearAndDispose();
  }
}
