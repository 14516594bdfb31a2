// The hook call memory on disk (src/hooks/callFiles.ts): bounded per session, old files removed, other sessions'
// and foreign files never read as this session's calls.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CallFiles } from '../../src/hooks/callFiles';
import type { RememberedCall } from '../../src/hooks/callMemory';
import { HOOK_MEMORY_CALLS, HOOK_MEMORY_FILE_MAX_BYTES, HOOK_MEMORY_FILE_TTL_MS } from '../../src/protocol/limits';

const call = (i: number, at = Date.now() + i): RememberedCall => ({ toolId: `t${i}`, name: 'bash', input: { command: `echo ${i}` }, asked: false, requested: false, at });

describe('the hook call memory on disk', () => {
  it('keeps the newest HOOK_MEMORY_CALLS of a session, newest first; removes expired files; skips other sessions, oversize inputs and foreign files', () => {
    const dir = process.env.ZUT_HOOKS_DIR!; // this test file's own (test/helpers/setup.ts)
    const files = new CallFiles();
    for (let i = 0; i < HOOK_MEMORY_CALLS + 8; i++) files.write('s1', call(i));
    files.write('s2', call(1000));
    files.write('s1', { ...call(2000), input: { content: 'x'.repeat(HOOK_MEMORY_FILE_MAX_BYTES) } });
    const old = call(3000, Date.now() - HOOK_MEMORY_FILE_TTL_MS - 1_000);
    files.write('s1', old);
    expect(fs.existsSync(old.file!)).toBe(true);
    fs.writeFileSync(path.join(dir, 'm-notours.json'), '{"session":"s1"}');
    const got = files.read('s1');
    expect(got.map((c) => c.toolId)).toEqual(Array.from({ length: HOOK_MEMORY_CALLS }, (_, k) => `t${HOOK_MEMORY_CALLS + 7 - k}`));
    expect(fs.existsSync(old.file!)).toBe(false);
    expect(files.read('s2').map((c) => c.toolId)).toEqual(['t1000']);
    const s1Files = fs.readdirSync(dir).filter((f) => got.some((c) => c.file === path.join(dir, f)));
    expect(s1Files).toHaveLength(HOOK_MEMORY_CALLS);
  });

  it('a mark rewrites the same file', () => {
    const files = new CallFiles();
    const c = call(1);
    files.write('s3', c);
    const first = c.file;
    c.asked = true;
    files.write('s3', c);
    expect(c.file).toBe(first);
    expect(files.read('s3')).toEqual([{ ...c, file: first }]);
  });
});
