/** The window of requests on the wire (src/host/connection/requestWindow.ts): order, slots, bytes, busy. */
import { describe, expect, it } from 'vitest';
import { RequestWindow } from '../../src/host/connection/requestWindow';

function window(limits = { inFlight: 2, bytesInFlight: 100, held: 2 }) {
  const sent: string[] = [];
  const failed: string[] = [];
  const w = new RequestWindow((id) => (sent.push(id), true), (id) => failed.push(id), limits);
  return { w, sent, failed };
}

describe('RequestWindow', () => {
  it('writes up to the in-flight cap, holds the rest in order, refuses past the held cap as busy', () => {
    const { w, sent } = window();
    expect(['a', 'b', 'c', 'd', 'e'].map((id) => w.submit(id, 'x'))).toEqual(['sent', 'sent', 'held', 'held', 'busy']);
    expect(sent).toEqual(['a', 'b']);
    w.settled('a', true);
    expect(sent).toEqual(['a', 'b', 'c']);
    expect(w.heldCount).toBe(1);
  });

  it('a held request that times out or is cancelled leaves unwritten; a slot is not freed by it', () => {
    const { w, sent } = window();
    for (const id of ['a', 'b', 'c', 'd']) w.submit(id, 'x');
    expect(w.isHeld('c')).toBe(true);
    w.settled('c', true);
    expect(sent).toEqual(['a', 'b']);
    w.settled('b', true);
    expect(sent).toEqual(['a', 'b', 'd']);
  });

  it('counts bytes: one large request passes alone, the next waits for it', () => {
    const { w, sent } = window({ inFlight: 10, bytesInFlight: 100, held: 10 });
    expect(w.submit('big', 'x'.repeat(150))).toBe('sent');
    expect(w.submit('small', 'x')).toBe('held');
    w.settled('big', true);
    expect(sent).toEqual(['big', 'small']);
  });

  it('no pumping while the connection goes away', () => {
    const { w, sent } = window();
    for (const id of ['a', 'b', 'c']) w.submit(id, 'x');
    w.settled('a', false);
    expect(sent).toEqual(['a', 'b']);
  });
});
