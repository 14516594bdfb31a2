/**
 * Which extensions judge an agent's hook with no window (issue 37), through the real bundles (dist/cli.js and
 * dist/hook.js side by side, spawned through a shell as agents spawn hooks): a warm host serves only callers with its
 * own extension homes (finding 6). The guard: a block-all one (fixtures/hooks/moodyGuard.mjs). The key itself:
 * warmKey.test.ts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, builtHook } from '../helpers/built';
import { runProcess } from '../helpers/runProcess';
import { cleanupTemps, tempDir } from '../helpers/temp';
import { alive, until } from '../helpers/until';

let tmp: string;
let bin: string;
let hooksDir: string;
let emptyHome: string;
let moodyLog: string;
const MOODY = path.resolve(__dirname, 'fixtures/hooks/moodyGuard.mjs');
const DENY_ALL = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'blocked by moody: blocks everything' } };

beforeAll(() => {
  tmp = tempDir('zut-hook-scope-');
  bin = path.join(tmp, 'bin');
  fs.mkdirSync(bin);
  fs.copyFileSync(builtCli(), path.join(bin, 'cli.js'));
  fs.copyFileSync(builtHook(), path.join(bin, 'hook.js'));
  hooksDir = path.join(tmp, 'hooks');
  emptyHome = path.join(tmp, 'empty-home');
  moodyLog = path.join(tmp, 'moody.log');
});

afterAll(async () => {
  await zutHost(['hook', 'host', 'stop']);
  cleanupTemps();
});

const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  HOME: tmp,
  ZUT_HOME: emptyHome,
  ZOT_HOME: path.join(tmp, 'no-zot'),
  ZUT_HOOKS_DIR: hooksDir,
  MOODY_LOG: moodyLog,
  ZUT_HOOK_WARM: '1',
  ...extra,
});
const zutHost = (args: string[], extra: NodeJS.ProcessEnv = {}) => runProcess(process.execPath, [path.join(bin, 'cli.js'), ...args], { env: env(extra), timeoutMs: 60_000 });
const hook = (input: object, extra: NodeJS.ProcessEnv = {}) =>
  runProcess(`"${process.execPath}" "${path.join(bin, 'hook.js')}" hook --agent claude PreToolUse`, [], { shell: true, cwd: tmp, env: env(extra), stdin: JSON.stringify(input), timeoutMs: 60_000 });
const ls = (cwd: string, id: string) => ({ session_id: 's', cwd, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: id });
const decision = async (input: object, extra: NodeJS.ProcessEnv = {}): Promise<unknown> => {
  const r = await hook(input, extra);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout === '' ? 'allowed' : JSON.parse(r.stdout);
};
/** The pid of the moody guard that judged call `id`. */
const judge = (id: string) =>
  (fs.existsSync(moodyLog) ? fs.readFileSync(moodyLog, 'utf8') : '')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { kind: string; pid: number; tool_id?: string })
    .find((l) => l.kind === 'intercept' && l.tool_id === id)?.pid;
const mk = (...parts: string[]) => {
  const d = path.join(...parts);
  fs.mkdirSync(d, { recursive: true });
  return d;
};
/** The block-all guard installed in `extensions` (a home's or a project's). */
const moodyIn = (extensions: string) => fs.writeFileSync(path.join(mk(extensions, 'moody'), 'extension.json'), JSON.stringify({ name: 'moody', exec: process.execPath, args: [MOODY] }));
/** The warm hosts listening, by folder. */
const hosts = async (): Promise<{ pid: number; folder: string }[]> => JSON.parse((await zutHost(['hook', 'host', 'status', '--json'])).stdout) as { pid: number; folder: string }[];
const hostsOf = async (folder: string) => (await hosts()).filter((h) => h.folder === folder);

describe('finding 6: a warm host answers only callers with its own extension homes', () => {
  it('two agents on one folder, one with a block-all guard in its $ZUT_HOME (or $XDG_STATE_HOME/zut): that one is denied, by hosts of its own', async () => {
    const ws = mk(tmp, 'shared-folder');
    const guarded = path.join(tmp, 'guarded-home');
    moodyIn(path.join(guarded, 'extensions'));
    const xdg = path.join(tmp, 'xdg');
    moodyIn(path.join(xdg, 'zut', 'extensions'));
    // The agent with an empty home comes first: its warm host comes up for the folder.
    expect(await decision(ls(ws, 'h1'))).toBe('allowed');
    await until(async () => (await hostsOf(ws)).length === 1, 30_000, 'the empty home’s warm host');
    // The agent whose home holds the guard: never answered by that host.
    expect(await decision(ls(ws, 'h2'), { ZUT_HOME: guarded })).toEqual(DENY_ALL);
    await until(async () => (await hostsOf(ws)).length === 2, 30_000, 'the guarded home’s warm host');
    expect(await decision(ls(ws, 'h3'), { ZUT_HOME: guarded })).toEqual(DENY_ALL);
    expect(alive(judge('h3')!)).toBe(true); // its warm host's guard, still running
    // The same home named through $XDG_STATE_HOME (no $ZUT_HOME): a home of its own again, denied.
    expect(await decision(ls(ws, 'h4'), { ZUT_HOME: '', XDG_STATE_HOME: xdg })).toEqual(DENY_ALL);
    // …and the empty home's agent still gets its own host's answer.
    expect(await decision(ls(ws, 'h5'))).toBe('allowed');
    // (Every host those calls started is up before all are stopped: none comes up after.)
    await until(async () => (await hostsOf(ws)).length === 3, 30_000, 'the third home’s warm host');
    await zutHost(['hook', 'host', 'stop', '--cwd', ws]);
  }, 90_000);
});
