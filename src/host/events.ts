/**
 * VS Code-free building blocks for events and disposal (the shape of `vscode.Event` / `vscode.Disposable`,
 * so adapters can pass these straight through).
 */

/** Something that can be released. */
export interface IDisposable {
  dispose(): void;
}

/** A subscribable event: call it with a listener, dispose the result to unsubscribe. */
export type Event<T> = (listener: (e: T) => void) => IDisposable;

/** A minimal event emitter. Listener errors are isolated: one bad listener never stops the others. */
export class Emitter<T> implements IDisposable {
  private listeners = new Set<(e: T) => void>();
  private disposed = false;

  /** The event to hand out. */
  readonly event: Event<T> = (listener) => {
    if (this.disposed) return { dispose() {} };
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  };

  fire(value: T): void {
    for (const l of [...this.listeners]) {
      try {
        l(value);
      } catch (e) {
        console.error('[zut] event listener failed:', e);
      }
    }
  }

  dispose(): void {
    this.disposed = true;
    this.listeners.clear();
  }
}

/** A base class that owns disposables registered with `_register` and releases them in reverse order. */
export abstract class Disposable implements IDisposable {
  private readonly toDispose: IDisposable[] = [];
  private isDisposed = false;

  protected _register<T extends IDisposable>(d: T): T {
    if (this.isDisposed) d.dispose();
    else this.toDispose.push(d);
    return d;
  }

  protected get disposed(): boolean {
    return this.isDisposed;
  }

  dispose(): void {
    if (this.isDisposed) return;
    this.isDisposed = true;
    for (const d of this.toDispose.splice(0).reverse()) {
      try {
        d.dispose();
      } catch (e) {
        console.error('[zut] dispose failed:', e);
      }
    }
  }
}
