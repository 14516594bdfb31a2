/**
 * Which extensions judge an agent's hook with no window (issue 37), through the real bundles (dist/cli.js and
 * dist/hook.js side by side, spawned through a shell as agents spawn hooks): a warm host serves only callers with its
 * own extension homes (finding 6); the project is the outermost folder of the input's `cwd` and its parents with
 * project extensions, so `cd src` keeps the repository's guard and `cd vendor/pkg` never starts the nested folder's
 * extensions on the repository's opt-in — with a host of the hook's own (`ZUT_HOOK_WARM=0`) and with the warm host
 * (finding 7). The guard: a block-all one (fixtures/hooks/moodyGuard.mjs). The rules themselves: warmKey.test.ts,
 * projectFolder.test.ts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hookBundlesIn } from '../helpers/built';
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
  bin = hookBundlesIn(path.join(tmp, 'bin'));
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

describe.each(['0', '1'])('finding 7: the project is found as the window is, the repository’s (ZUT_HOOK_WARM=%s)', (warm) => {
  const on = { ZUT_ALLOW_PROJECT: '1', ZUT_HOOK_WARM: warm };
  /**
   * A call from `cwd` is denied by the block-all guard; with the warm host on, again once the warm host of `project`
   * listens. `check`: run after the first call (its own host has stopped), before its answer is looked at.
   */
  async function denied(cwd: string, project: string, id: string, check = () => {}): Promise<void> {
    const first = await decision(ls(cwd, `${id}-a`), on);
    check();
    expect(first).toEqual(DENY_ALL);
    if (warm === '0') return;
    await until(async () => (await hostsOf(project)).length > 0, 30_000, `the warm host of ${project}`);
    expect(await decision(ls(cwd, `${id}-b`), on)).toEqual(DENY_ALL);
    expect(alive(judge(`${id}-b`)!)).toBe(true); // the warm host's guard judged (the first call's own stopped with it)
  }

  it('with the opt-in and a block-all guard in repo/.zut/extensions, a PreToolUse from repo/src is denied by it; without the opt-in it does not run', async () => {
    const repo = mk(tmp, `repo-${warm}`);
    moodyIn(path.join(repo, '.zut', 'extensions'));
    const src = mk(repo, 'src', 'lib');
    await denied(src, repo, `src-${warm}`);
    expect(await decision(ls(src, `held-${warm}`), { ZUT_HOOK_WARM: warm })).toBe('allowed');
    if (warm === '1') await until(async () => (await hostsOf(repo)).length === 2, 30_000, 'the warm host without the opt-in'); // before all stop
    // `stop --cwd` from where the agent works stops the project's hosts (found as a hook finds them).
    expect((await zutHost(['hook', 'host', 'stop', '--cwd', src])).stdout).toBe(warm === '1' ? 'Stopped 2 warm hook hosts.\n' : 'No warm hook host is running.\n');
    expect(await hostsOf(repo)).toEqual([]);
  }, 90_000);

  it('from repo/vendor/pkg on the repository’s opt-in: the repository’s guard judges; vendor/pkg’s extension is never started', async () => {
    const repo = mk(tmp, `vendoring-${warm}`);
    moodyIn(path.join(repo, '.zut', 'extensions'));
    const pkg = mk(repo, 'vendor', 'pkg');
    const marker = path.join(tmp, `vendored-${warm}.started`);
    const vendored = mk(pkg, '.zut', 'extensions', 'vendored');
    fs.writeFileSync(
      path.join(vendored, 'run.sh'),
      `#!/bin/sh\necho $$ >> '${marker}'\nprintf '%s\\n' '{"type":"hello","protocol_version":2,"name":"vendored","version":"1"}' '{"type":"ready"}'\nwhile read l; do :; done\n`,
      { mode: 0o755 },
    );
    fs.writeFileSync(path.join(vendored, 'extension.json'), JSON.stringify({ name: 'vendored', exec: './run.sh' }));
    const neverStarted = () => expect(fs.existsSync(marker), 'vendor/pkg’s extension started').toBe(false);
    await denied(pkg, repo, `pkg-${warm}`, neverStarted);
    expect(await hostsOf(pkg)).toEqual([]);
    // Every host that could have started it has stopped (and the warm one waited on): it never did.
    await zutHost(['hook', 'host', 'stop', '--cwd', repo]);
    neverStarted();
  }, 90_000);
});
