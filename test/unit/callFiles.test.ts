// The hook call memory on disk (src/hooks/callFiles.ts): bounded at every write — per session, in all, in age — other
// sessions' and foreign files never read as this session's calls, a finished call's file removed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CallFiles } from '../../src/hooks/callFiles';
import type { RememberedCall } from '../../src/hooks/callMemory';
import { HOOK_MEMORY_CALLS, HOOK_MEMORY_FILE_MAX_BYTES, HOOK_MEMORY_FILES, HOOK_MEMORY_TTL_MS } from '../../src/protocol/limits';

const call = (i: number, at = Date.now() + i): RememberedCall => ({ toolId: `t${i}`, name: 'bash', input: { command: `echo ${i}` }, asked: false, requested: false, at });
const dir = () => process.env.ZUT_HOOKS_DIR!; // this test file's own (test/helpers/setup.ts)
const callFiles = () => fs.readdirSync(dir()).filter((f) => f.startsWith('m-') && f.endsWith('.json') && f !== 'm-notours.json');

describe('the hook call memory on disk', () => {
  it('keeps the newest HOOK_MEMORY_CALLS of a session at each write, newest first; an expired file goes at the next write; skips other sessions, oversize inputs and foreign files', () => {
    const files = new CallFiles();
    for (let i = 0; i < HOOK_MEMORY_CALLS + 8; i++) files.write('s1', call(i));
    files.write('s2', call(1000));
    files.write('s1', { ...call(2000), input: { content: 'x'.repeat(HOOK_MEMORY_FILE_MAX_BYTES) } });
    const old = call(3000, Date.now() - HOOK_MEMORY_TTL_MS - 1_000);
    files.write('s1', old);
    expect(fs.existsSync(old.file!)).toBe(true); // the one just written stays until the next write
    fs.writeFileSync(path.join(dir(), 'm-notours.json'), '{"session":"s1"}');
    const got = files.read('s1');
    expect(got.map((c) => c.toolId)).toEqual(Array.from({ length: HOOK_MEMORY_CALLS }, (_, k) => `t${HOOK_MEMORY_CALLS + 7 - k}`));
    files.write('s2', call(1001));
    expect(fs.existsSync(old.file!)).toBe(false);
    expect(files.read('s2').map((c) => c.toolId)).toEqual(['t1001', 't1000']);
    expect(callFiles()).toHaveLength(HOOK_MEMORY_CALLS + 2);
    expect(fs.existsSync(path.join(dir(), 'm-notours.json'))).toBe(true); // not ours to remove
  });

  it('holds at most HOOK_MEMORY_FILES in all, whatever the sessions, without a read (the oldest go first)', () => {
    const files = new CallFiles();
    const written = Array.from({ length: HOOK_MEMORY_FILES + 40 }, (_, i) => {
      const c = call(10_000 + i);
      files.write(`many-${i}`, c);
      return c;
    });
    expect(callFiles().length).toBeLessThanOrEqual(HOOK_MEMORY_FILES);
    expect(fs.existsSync(written.at(-1)!.file!)).toBe(true);
    expect(fs.existsSync(written[0]!.file!)).toBe(false);
  });

  it('a mark rewrites the same file; a finished call’s file is removed', () => {
    const files = new CallFiles();
    const c = call(1);
    files.write('s3', c);
    const first = c.file;
    c.asked = true;
    files.write('s3', c);
    expect(c.file).toBe(first);
    expect(files.read('s3')).toEqual([{ ...c, file: first }]);
    files.remove(c);
    expect(fs.existsSync(first!)).toBe(false);
    expect(files.read('s3')).toEqual([]);
  });
});
