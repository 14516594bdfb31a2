/**
 * Splits a round trip into the parent's own part and the wire part, for the round-trip notes: timestamps of the
 * last socket write (the request leaving) and the last socket `data` event (the reply arriving), taken by
 * wrapping net.Socket's write/emit while the probe is installed. Bench-only instrumentation.
 */
import * as net from 'node:net';

export class WireProbe {
  lastWrite = 0;
  lastData = 0;
  private restore: (() => void) | undefined;

  install(): void {
    const proto = net.Socket.prototype as unknown as Record<'write' | 'emit', (...a: unknown[]) => unknown>;
    const write = proto.write;
    const emit = proto.emit;
    const hadOwnEmit = Object.prototype.hasOwnProperty.call(proto, 'emit');
    const markWrite = () => (this.lastWrite = performance.now());
    const markData = () => (this.lastData = performance.now());
    proto.write = function (this: unknown, ...a: unknown[]) {
      markWrite();
      return write.apply(this, a);
    };
    proto.emit = function (this: unknown, ...a: unknown[]) {
      if (a[0] === 'data') markData();
      return emit.apply(this, a);
    };
    this.restore = () => {
      proto.write = write;
      if (hadOwnEmit) proto.emit = emit;
      else delete (proto as Partial<typeof proto>).emit;
    };
  }

  uninstall(): void {
    this.restore?.();
    this.restore = undefined;
  }
}
