/**
 * What a guard is told of its host (`hello_ack.provider`, `.model`) is fixed by the kind of shell that runs it
 * (src/runtime/recipe.ts SHELL_FACTS), not by the shell's own code: the same from the per-call hook host
 * (`ZUT_HOOK_WARM=0`, and the first call of a folder, which answers itself) and from the warm hook host, which serves
 * every agent of its folder — and from `zut-host mcp`, which answers Claude Code's `mcp_tool` hooks: `agent`, whichever
 * agent calls and whichever of them answers. The real bundles (dist/cli.js, dist/hook.js side by side), the hook guard
 * fixture logging its hello_ack.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTemps, tempDir } from '../helpers/temp';
import { hookBundlesIn } from '../helpers/built';
import { runProcess } from '../helpers/runProcess';
import { until } from '../helpers/until';
import { SHELL_FACTS } from '../../src/runtime/recipe';

let tmp: string;
let bin: string;
let zutHome: string;
let guardLog: string;

beforeAll(() => {
  tmp = tempDir('zut-provider-');
  bin = hookBundlesIn(path.join(tmp, 'bin'));
  zutHome = path.join(tmp, 'zut-home');
  guardLog = path.join(tmp, 'guard.log');
  const guard = path.join(zutHome, 'extensions', 'hook-guard');
  fs.mkdirSync(guard, { recursive: true });
  fs.writeFileSync(path.join(guard, 'extension.json'), JSON.stringify({ name: 'hook-guard', exec: process.execPath, args: [path.resolve(__dirname, 'fixtures/hooks/guard.mjs')] }));
});

afterAll(async () => {
  await runProcess(process.execPath, [path.join(bin, 'cli.js'), 'hook', 'host', 'stop'], { env: env(), timeoutMs: 60_000 });
  cleanupTemps();
});

const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  HOME: tmp,
  ZUT_HOME: zutHome,
  ZOT_HOME: path.join(tmp, 'no-zot'),
  ZUT_HOOKS_DIR: path.join(tmp, 'hooks'),
  GUARD_LOG: guardLog,
  ...extra,
});

interface Line {
  kind: string;
  pid: number;
  tool_id?: string;
  provider?: string;
  model?: string;
}
const seen = (): Line[] => (fs.existsSync(guardLog) ? fs.readFileSync(guardLog, 'utf8') : '').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);
/** What the guard that judged call `id` was told of its host. */
const toldWho = (id: string) => {
  const pid = seen().find((l) => l.kind === 'intercept' && l.tool_id === id)?.pid;
  const ack = seen().find((l) => l.kind === 'hello_ack' && l.pid === pid);
  return { pid, provider: ack?.provider, model: ack?.model };
};

const hook = (ws: string, id: string, agent: string, warm: boolean) =>
  runProcess(`"${process.execPath}" "${path.join(bin, 'hook.js')}" hook --agent ${agent} PreToolUse`, [], {
    shell: true,
    cwd: ws,
    env: env({ ZUT_HOOK_WARM: warm ? '1' : '0' }),
    stdin: JSON.stringify({ session_id: 's', cwd: ws, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, tool_use_id: id }),
    timeoutMs: 60_000,
  });
const workspace = (name: string) => {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
};
const warmHostUp = async (ws: string) =>
  (JSON.parse((await runProcess(process.execPath, [path.join(bin, 'cli.js'), 'hook', 'host', 'status', '--json'], { env: env(), timeoutMs: 60_000 })).stdout) as { folder: string }[]).some(
    (h) => h.folder === ws,
  );

describe('the provider a guard is told is the same from every shell an agent calls through', () => {
  it('the per-call and the warm hook host and zut-host mcp tell the same (agent), whichever agent calls', async () => {
    const hookFacts = { provider: SHELL_FACTS.hook.provider, model: SHELL_FACTS.hook.model };
    expect(hookFacts).toEqual({ provider: 'agent', model: 'unknown' });

    // A host of each call's own, for two agents.
    const here = workspace('per-call');
    await hook(here, 'here-claude', 'claude', false);
    await hook(here, 'here-copilot', 'copilot-cli', false);
    const perCall = [toldWho('here-claude'), toldWho('here-copilot')];
    expect(perCall[0]!.pid).not.toBe(perCall[1]!.pid);

    // The warm host: the first call answers itself, the next ones (of any agent) are the warm host's.
    const ws = workspace('warm');
    await hook(ws, 'first', 'claude', true);
    await until(() => warmHostUp(ws), 10_000, 'the warm host');
    await hook(ws, 'warm-claude', 'claude', true);
    await hook(ws, 'warm-vscode', 'vscode', true);
    const [first, warmClaude, warmVscode] = [toldWho('first'), toldWho('warm-claude'), toldWho('warm-vscode')];
    expect(warmClaude.pid).toBe(warmVscode.pid); // one guard process serves both agents
    expect(warmClaude.pid).not.toBe(first.pid);

    for (const told of [...perCall, first, warmClaude, warmVscode]) expect({ provider: told.provider, model: told.model }).toEqual(hookFacts);

    // zut-host mcp (which answers mcp_tool hooks): the same.
    const before = new Set(seen().map((l) => l.pid));
    const mcp = spawn(process.execPath, [path.join(bin, 'cli.js'), 'mcp', '--cwd', workspace('mcp')], { env: env(), stdio: ['pipe', 'ignore', 'ignore'] });
    const exited = new Promise((r) => mcp.on('exit', r));
    const ack = await until(() => seen().find((l) => l.kind === 'hello_ack' && !before.has(l.pid)), 20_000, "the MCP host's guard");
    mcp.stdin.end();
    await exited;
    expect({ provider: ack.provider, model: ack.model }).toEqual(hookFacts);
  }, 120_000);
});
