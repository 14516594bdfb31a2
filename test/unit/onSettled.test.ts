// host/events.ts onSettled: one run per burst of an event, after it has been quiet for the delay; disposing drops a
// pending run and unsubscribes.
import { describe, expect, it, vi } from 'vitest';
import { Emitter, onSettled } from '../../src/host/events';

describe('onSettled', () => {
  it('runs once, the delay after the last firing of a burst; disposing drops a pending run', () => {
    vi.useFakeTimers();
    try {
      const e = new Emitter<void>();
      const fn = vi.fn();
      const d = onSettled(e.event, 50, fn);
      e.fire();
      vi.advanceTimersByTime(30);
      e.fire();
      vi.advanceTimersByTime(30);
      expect(fn).not.toHaveBeenCalled();
      vi.advanceTimersByTime(20);
      expect(fn).toHaveBeenCalledTimes(1);
      e.fire();
      d.dispose();
      vi.advanceTimersByTime(100);
      e.fire();
      vi.advanceTimersByTime(100);
      expect(fn).toHaveBeenCalledTimes(1);
      e.dispose();
    } finally {
      vi.useRealTimers();
    }
  });
});
