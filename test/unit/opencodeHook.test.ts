// opencode as a hook agent: the payloads zut's plugin sent from the real opencode 1.18.33 (test/agents/fixtures/
// opencode, captured by test/agents/opencode.test.mjs) read into zut's hook input, the dialect's answers, the
// foreign-tool rows, the plugin itself driven with opencode's hook objects, and the set-up row on disk.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dialectOf, hookEventOf } from '../../src/hooks/dialects';
import { hookFailure } from '../../src/hooks/failure';
import { readHookInput, type HookInput } from '../../src/hooks/input';
import type { HookCall, HookEvent } from '../../src/hooks/names';
import { isOwnMcpName } from '../../src/hooks/tools';
import { foreignCall } from '../../src/host/calls/foreignTools';
import { opencodePluginText } from '../../src/agentSetup/agents/opencodePlugin';
import { OPENCODE_ROW, pluginFile } from '../../src/agentSetup/agents/opencode';
import type { Installation } from '../../src/agentSetup/hookInstall';

const FIXTURES = path.join(__dirname, '..', 'agents', 'fixtures', 'opencode');
const fixture = (name: string): string => readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8');
const call = (event: HookEvent): HookCall => ({ agent: 'opencode', event, camel: false });
const read = (event: HookEvent, name = event): HookInput => {
  const r = readHookInput(fixture(name), call(event));
  if (typeof r === 'string') throw new Error(r);
  return r;
};

describe('opencode: the plugin payloads (recorded)', () => {
  it('tool.execute.before reads as PreToolUse of bash with its args, session, call id and folder', () => {
    const i = read('PreToolUse');
    expect(i).toMatchObject({ toolName: 'bash', toolInput: { command: 'touch /tmp/zut-agents-sandbox/ws/ran' }, cwd: '/tmp/zut-agents-sandbox/ws' });
    expect(i.sessionId).toMatch(/^ses_/);
    expect(i.toolUseId).toMatch(/^call_/);
  });

  it("tool.execute.after reads as PostToolUse with input.args and the tool's output text", () => {
    const i = read('PostToolUse');
    expect(i).toMatchObject({ toolName: 'bash', toolInput: { command: 'touch /tmp/zut-agents-sandbox/ws/ran' }, toolResponse: '(no output)' });
  });

  it('chat.message reads as UserPromptSubmit with the prompt', () => {
    expect(read('UserPromptSubmit')).toMatchObject({ sessionId: expect.stringMatching(/^ses_/), prompt: '"Do what the test says."' });
  });

  it('the system transform reads as SessionStart of the session', () => {
    expect(read('SessionStart')).toMatchObject({ sessionId: expect.stringMatching(/^ses_/), cwd: '/tmp/zut-agents-sandbox/ws', toolName: undefined });
    expect(hookEventOf('PreToolUse', 'opencode')).toBe('PreToolUse');
  });
});

describe('opencode: answers', () => {
  const d = dialectOf('opencode');
  it('deny, rewrite, context, a blocked prompt: one JSON line of {action}', () => {
    expect(JSON.parse(d.deny(call('PreToolUse'), 'no').stdout)).toEqual({ action: 'deny', reason: 'no' });
    const rw = JSON.parse(d.rewrite(call('PreToolUse'), { updated: { command: 'ls' }, toolName: 'bash', by: ['g'] }).stdout);
    expect(rw).toMatchObject({ action: 'rewrite', args: { command: 'ls' } });
    expect(rw.note).toMatch(/rewritten by the guard g/);
    expect(JSON.parse(d.context(call('SessionStart'), 'SessionStart', 'hi').stdout)).toEqual({ action: 'context', text: 'hi' });
    expect(JSON.parse(d.blockPrompt(call('UserPromptSubmit'), 'no').stdout)).toEqual({ action: 'block', reason: 'no' });
  });

  it("a hook that failed denies a PreToolUse in opencode's form (the plugin throws on it)", () => {
    const a = hookFailure(call('PreToolUse'), 'boom');
    expect(a.exitCode).toBe(0);
    expect(JSON.parse(a.stdout)).toEqual({ action: 'deny', reason: 'blocked by zut: zut-host hook: boom' });
  });

  it('zut_<tool> is ours when the host serves the tool; another server or tool is not', () => {
    const tools = [{ name: 'guard_status', description: '', inputSchema: {}, ext: 'g' }] as never;
    expect(isOwnMcpName('opencode', 'zut_guard_status', tools)).toBe(true);
    expect(isOwnMcpName('opencode', 'zut_other', tools)).toBe(false);
    expect(isOwnMcpName('opencode', 'bash', tools)).toBe(false);
  });
});

describe("opencode: its tools as zut's", () => {
  const view = (name: string, input: unknown) => foreignCall('opencode', name, input);
  it('bash, read, write, edit, grep, webfetch from the recorded and the schemas of 1.18.33', () => {
    const pre = JSON.parse(fixture('PreToolUse'));
    expect(view('bash', pre.output.args).views).toEqual([{ name: 'bash', args: { command: 'touch /tmp/zut-agents-sandbox/ws/ran' }, effect: 'exec' }]);
    expect(view('bash', { command: 'x', timeout: 2500 }).views[0]!.args).toEqual({ command: 'x', timeout: 3 });
    expect(view('read', { filePath: '/a', offset: 2, limit: 3 }).views[0]).toMatchObject({ name: 'read', args: { path: '/a', offset: 2, limit: 3 } });
    expect(view('write', { filePath: '/a', content: 'c' }).views[0]).toMatchObject({ name: 'write', args: { path: '/a', content: 'c' } });
    expect(view('edit', { filePath: '/a', oldString: 'o', newString: 'n' }).views[0]).toMatchObject({ name: 'edit', args: { path: '/a', edits: [{ oldText: 'o', newText: 'n' }] } });
    expect(view('grep', { pattern: 'p', include: '*.ts' }).views[0]).toMatchObject({ name: 'grep', args: { pattern: 'p', glob: '*.ts' } });
    expect(view('webfetch', { url: 'https://x', format: 'text' }).views[0]).toMatchObject({ name: 'web_open', args: { url: 'https://x' } });
  });

  it('a rewrite maps back onto the original keys', () => {
    const c = view('edit', { filePath: '/a', oldString: 'o', newString: 'n' });
    expect(c.back([{ path: '/b', edits: [{ oldText: 'o', newText: 'N' }] }])).toEqual({ input: { filePath: '/b', oldString: 'o', newString: 'N' } });
    expect(view('edit', { filePath: '/a', oldString: 'o', newString: 'n', replaceAll: true }).back([{ path: '/a', edits: [{ oldText: 'x', newText: 'y' }] }])).toHaveProperty('error');
  });

  it('apply_patch {patchText}: one view per file', () => {
    const patchText = ['*** Begin Patch', '*** Add File: a.txt', '+hi', '*** Delete File: b.txt', '*** End Patch'].join('\n');
    expect(view('apply_patch', { patchText }).views).toEqual([
      { name: 'write', args: { path: 'a.txt', content: 'hi' }, effect: 'write' },
      { name: 'apply_patch', args: { operation: 'delete', path: 'b.txt' }, effect: 'write' },
    ]);
    expect(view('apply_patch', { patchText: 'not a patch' }).unfit).toBe(true);
  });

  it('batch: every sub-call as its own row shows it; an unfit sub-call leaves the batch unfit (blocked)', () => {
    const b = view('batch', { tool_calls: [{ tool: 'read', parameters: { filePath: '/a' } }, { tool: 'bash', parameters: { command: 'rm -rf /' } }, { tool: 'todowrite', parameters: {} }] });
    expect(b.views.map((v) => v.name)).toEqual(['read', 'bash', 'todowrite']);
    expect(b.views[1]!.args).toEqual({ command: 'rm -rf /' });
    expect(b.back(b.views.map((v) => ({ ...v.args })))).toHaveProperty('error');
    expect(view('batch', { tool_calls: [{ tool: 'bash', parameters: { cmd: 'rm -rf /' } }] }).unfit).toBe(true);
  });

  it('unknown to Copilot CLI: a Claude Code name is not aliased for opencode', () => {
    expect(view('Bash', { command: 'ls' }).mapped).toBe(false);
  });
});

describe('opencode: the plugin, driven as opencode drives it', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'zut-oc-plugin-'));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  /** The plugin's hooks for a hook command that runs `script` (sh; $4 is the event). */
  async function hooksFor(script: string, timeoutMs?: number) {
    const file = path.join(dir, `p${Math.random().toString(36).slice(2)}.mjs`);
    await fs.writeFile(file, opencodePluginText(['/bin/sh', '-c', script, 'x'], timeoutMs));
    const mod = (await import(pathToFileURL(file).href)) as { ZutGuard: (i: { directory: string }) => Promise<Record<string, (i: unknown, o: unknown) => Promise<void>>> };
    expect(Object.keys(mod)).toEqual(['ZutGuard']); // opencode calls every export as a plugin
    return mod.ZutGuard({ directory: dir });
  }
  const before = () => ({ input: { tool: 'bash', sessionID: 's', callID: 'c' }, output: { args: { command: 'rm -rf x', description: 'd' } } });

  it('no answer: the call runs unchanged; the payload is {event, input, output, directory}', async () => {
    const log = path.join(dir, 'in.json');
    const h = await hooksFor(`cat > '${log}'`);
    const { input, output } = before();
    await h['tool.execute.before']!(input, output);
    expect(output.args).toEqual({ command: 'rm -rf x', description: 'd' });
    expect(JSON.parse(await fs.readFile(log, 'utf8'))).toEqual({ event: 'tool.execute.before', input, output, directory: dir });
  });

  it('deny throws the reason; rewrite replaces the args in place and the result is marked', async () => {
    const deny = await hooksFor(`echo '{"action":"deny","reason":"blocked by g: no"}'`);
    await expect(deny['tool.execute.before']!(before().input, before().output)).rejects.toThrow('blocked by g: no');
    const rw = await hooksFor(`[ "$4" = PreToolUse ] && echo '{"action":"rewrite","args":{"command":"ls"},"note":"NOTE"}' || true`);
    const { input, output } = before();
    const args = output.args;
    await rw['tool.execute.before']!(input, output);
    expect(output.args).toBe(args);
    expect(args).toEqual({ command: 'ls' });
    const after = { title: 't', output: 'out', metadata: {} };
    await rw['tool.execute.after']!({ ...input, args }, after);
    expect(after.output).toBe('NOTE\n\nout');
  });

  it('fails closed: killed, garbage, a non-zero exit, an answer it does not know, past its timeout, cannot start', async () => {
    const cases: [string, RegExp, number?][] = [
      ['kill -9 $$', /blocked by zut: zut-host hook was killed \(SIGKILL\)/],
      ['echo "{not json"', /blocked by zut: zut's answer is not JSON/],
      ['echo oops >&2; exit 1', /blocked by zut: zut-host hook exited 1: oops/],
      [`echo '{"action":"allow"}'`, /blocked by zut: an answer it does not know/],
      ['echo "[1]"', /blocked by zut: zut's answer is not a JSON object/],
      ['sleep 5', /blocked by zut: zut did not answer within 0.3 s/, 300],
    ];
    for (const [script, says, timeout] of cases) {
      const h = await hooksFor(script, timeout);
      await expect(h['tool.execute.before']!(before().input, before().output), script).rejects.toThrow(says);
    }
    const file = path.join(dir, 'missing.mjs');
    await fs.writeFile(file, opencodePluginText(['/nonexistent/zut-hook']));
    const mod = (await import(pathToFileURL(file).href)) as { ZutGuard: (i: { directory: string }) => Promise<Record<string, (i: unknown, o: unknown) => Promise<void>>> };
    await expect((await mod.ZutGuard({ directory: dir }))['tool.execute.before']!(before().input, before().output)).rejects.toThrow(/blocked by zut: cannot run \/nonexistent\/zut-hook/);
  });

  it("a prompt: a block throws (opencode does not send it); its context joins that session's system prompt; a failure lets it through", async () => {
    const msg = (text: string) => ({ message: {}, parts: [{ type: 'text', text }, { type: 'text', text: 'synthetic', synthetic: true }] });
    const log = path.join(dir, 'prompt.json');
    const h = await hooksFor(`[ "$4" = UserPromptSubmit ] || exit 0; cat > '${log}'; grep -q forbidden '${log}' && echo '{"action":"block","reason":"blocked by g: no"}' || echo '{"action":"context","text":"TURN"}'`);
    await expect(h['chat.message']!({ sessionID: 's' }, msg('the forbidden thing'))).rejects.toThrow('blocked by g: no');
    await h['chat.message']!({ sessionID: 's' }, msg('fine'));
    expect(JSON.parse(await fs.readFile(log, 'utf8'))).toMatchObject({ event: 'chat.message', input: { sessionID: 's' }, prompt: 'fine' });
    const out = { system: ['base'] };
    await h['experimental.chat.system.transform']!({ sessionID: 's' }, out);
    expect(out.system).toEqual(['base', 'TURN']);
    const broken = await hooksFor('exit 1');
    await expect(broken['chat.message']!({ sessionID: 's' }, msg('x'))).resolves.toBeUndefined();
  });

  it('SessionStart context is asked once per session and pushed to the system prompt; its failure adds nothing', async () => {
    const count = path.join(dir, 'count');
    const h = await hooksFor(`echo x >> '${count}'; echo '{"action":"context","text":"CTX"}'`);
    const a = { system: ['base'] };
    const b = { system: ['base'] };
    await h['experimental.chat.system.transform']!({ sessionID: 's' }, a);
    await h['experimental.chat.system.transform']!({ sessionID: 's' }, b);
    expect(a.system).toEqual(['base', 'CTX']);
    expect(b.system).toEqual(['base', 'CTX']);
    expect((await fs.readFile(count, 'utf8')).trim().split('\n')).toHaveLength(1);
    const broken = await hooksFor('exit 3');
    const c = { system: ['base'] };
    await broken['experimental.chat.system.transform']!({ sessionID: 's' }, c);
    expect(c.system).toEqual(['base']);
  });
});

describe('opencode: set-up row', () => {
  let base: string;
  let inst: Installation;
  beforeEach(async () => {
    base = await fs.mkdtemp(path.join(os.tmpdir(), 'zut-oc-setup-'));
    const dist = path.join(base, 'dist');
    await fs.mkdir(dist);
    for (const f of ['cli.js', 'hook.js']) await fs.writeFile(path.join(dist, f), '');
    inst = { node: process.execPath, cli: path.join(dist, 'cli.js'), home: path.join(base, 'home'), workspace: path.join(base, 'ws'), platform: 'linux' };
    await fs.mkdir(inst.workspace, { recursive: true });
    delete process.env.XDG_CONFIG_HOME;
  });
  afterEach(async () => {
    await fs.rm(base, { recursive: true, force: true });
  });

  it('installs the plugin and mcp.zut, keeps the rest of opencode.json, uninstalls exactly ours', async () => {
    const config = path.join(inst.workspace, 'opencode.json');
    const mine = '{\n  "model": "x/y",\n  "mcp": {\n    "other": {"type": "local", "command": ["o"]}\n  }\n}\n';
    await fs.writeFile(config, mine);
    expect(await OPENCODE_ROW.installHooks(inst, 'workspace')).toHaveLength(1);
    expect(await OPENCODE_ROW.installMcp(inst, 'workspace')).toHaveLength(1);
    const plugin = pluginFile(inst, 'workspace');
    expect(plugin).toBe(path.join(inst.workspace, '.opencode', 'plugins', 'zut-guard.js'));
    expect(await fs.readFile(plugin, 'utf8')).toContain(`const COMMAND = ${JSON.stringify([process.execPath, path.join(base, 'dist', 'hook.js')])};`);
    const json = JSON.parse(await fs.readFile(config, 'utf8'));
    expect(json.mcp.zut).toEqual({ type: 'local', command: [process.execPath, path.join(base, 'dist', 'cli.js'), 'mcp', '--cwd', inst.workspace], enabled: true });
    expect(json.mcp.other).toEqual({ type: 'local', command: ['o'] });
    expect(await OPENCODE_ROW.installHooks(inst, 'workspace')).toEqual([]); // already there
    expect(await OPENCODE_ROW.check(inst, 'workspace')).toMatchObject({ hooksInstalled: true, mcpInstalled: true, hooksRun: true, problems: [] });
    await OPENCODE_ROW.uninstallHooks(inst, 'workspace');
    await OPENCODE_ROW.uninstallMcp(inst, 'workspace');
    await expect(fs.access(plugin)).rejects.toThrow();
    expect(await fs.readFile(config, 'utf8')).toBe(mine);
  });

  it('user scope: the global folder; a file of someone else at our path is left; a stale or orphaned plugin is reported', async () => {
    const plugin = pluginFile(inst, 'user');
    expect(plugin).toBe(path.join(inst.home, '.config', 'opencode', 'plugins', 'zut-guard.js'));
    await fs.mkdir(path.dirname(plugin), { recursive: true });
    await fs.writeFile(plugin, 'export const Mine = async () => ({});\n');
    await expect(OPENCODE_ROW.installHooks(inst, 'user')).rejects.toThrow(/is not zut's plugin: left as it is/);
    expect(await OPENCODE_ROW.uninstallHooks(inst, 'user')).toEqual([]);
    await fs.rm(plugin);
    await OPENCODE_ROW.installHooks(inst, 'user');
    await fs.writeFile(plugin, (await fs.readFile(plugin, 'utf8')).replace('const TIMEOUT_MS = 30000;', 'const TIMEOUT_MS = 1;'));
    expect((await OPENCODE_ROW.check(inst, 'user')).problems[0]).toMatch(/another version's or installation's plugin: reinstall/);
    await OPENCODE_ROW.installHooks(inst, 'user');
    await fs.rm(path.join(base, 'dist', 'hook.js'));
    expect((await OPENCODE_ROW.check(inst, 'user')).problems[0]).toMatch(/which is gone: every tool call is blocked/);
  });

  it('an opencode.json an install made is deleted by uninstall when nothing else is in it', async () => {
    await OPENCODE_ROW.installHooks(inst, 'workspace');
    await OPENCODE_ROW.installMcp(inst, 'workspace');
    await OPENCODE_ROW.uninstallHooks(inst, 'workspace');
    await OPENCODE_ROW.uninstallMcp(inst, 'workspace');
    expect(await fs.readdir(inst.workspace)).toEqual(['.opencode']);
    expect(await fs.readdir(path.join(inst.workspace, '.opencode', 'plugins'))).toEqual([]);
  });

  it('an opencode.json with comments is left as it is, named', async () => {
    await fs.writeFile(path.join(inst.workspace, 'opencode.json'), '{ // mine\n}\n');
    await expect(OPENCODE_ROW.installMcp(inst, 'workspace')).rejects.toThrow(/opencode\.json is not strict JSON/);
  });

  it('the generated plugin is valid JavaScript (node --check)', async () => {
    const file = path.join(base, 'p.mjs');
    await fs.writeFile(file, opencodePluginText(['/a b/node', "/it's/hook.js"]));
    expect(() => execFileSync(process.execPath, ['--check', file])).not.toThrow();
  });
});
