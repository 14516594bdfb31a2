/**
 * `zut-host hook`, contract tests: the real CLI bundle spawned the way each agent spawns a hook command (VS Code's
 * hookExecutor: a shell, cwd = home, env without VSCODE_/GITHUB_/COPILOT_ keys, JSON on stdin then end, a timeout),
 * with payloads written from the agents' docs and source (VS Code snake_case and camelCase, Copilot CLI camelCase
 * and PascalCase, Claude Code), against a real fixture guard extension (fixtures/hooks/guard.mjs) in $ZUT_HOME.
 * Every contract runs against both entries: `cli.js hook …` and the light `hook.js hook …` (which, with no window
 * running here, hands the call to the CLI bundle beside it).
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTemps, tempDir } from '../helpers/temp';
import { hookBundlesIn } from '../helpers/built';
import { runProcess } from '../helpers/runProcess';

let tmp: string;
/** The entry under test (cli.js or hook.js, side by side in tmp as in dist/). */
let entry: string;
let zutHome: string;
let workspace: string;
let guardLog: string;

const GUARD = path.resolve(__dirname, 'fixtures/hooks/guard.mjs');

async function installGuard(extensionsDir: string): Promise<void> {
  const dir = path.join(extensionsDir, 'hook-guard');
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, 'extension.json'), JSON.stringify({ name: 'hook-guard', exec: process.execPath, args: [GUARD] }));
}

beforeAll(async () => {
  tmp = tempDir('zut-hook-');
  hookBundlesIn(tmp);
  zutHome = path.join(tmp, 'zut-home');
  workspace = path.join(tmp, 'workspace');
  guardLog = path.join(tmp, 'guard.log');
  await fs.mkdir(workspace, { recursive: true });
  await installGuard(path.join(zutHome, 'extensions'));
}, 60_000);

afterAll(async () => {
  cleanupTemps();
});

interface HookRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Spawns the hook command as VS Code's hookExecutor does (shell, cwd home, filtered env, stdin JSON, timeout). */
function runHook(args: string, stdin: string, o: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<HookRun> {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(VSCODE_|GITHUB_|COPILOT_)/i.test(k)) env[k] = v;
  // ZUT_HOOK_WARM=0: each call answers by itself (these are the contracts; the warm host has tests of its own).
  Object.assign(env, { ZUT_HOME: zutHome, HOME: tmp, ZOT_HOME: path.join(tmp, 'no-zot'), GUARD_LOG: guardLog, ZUT_HOOK_WARM: '0' }, o.env);
  const command = `"${process.execPath}" "${entry}" hook ${args}`;
  return runProcess(command, [], { shell: true, cwd: tmp, env, stdin, timeoutMs: o.timeoutMs ?? 30_000 });
}

async function guardSaw(): Promise<Record<string, unknown>[]> {
  const text = await fs.readFile(guardLog, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
}

const common = () => ({ timestamp: new Date().toISOString(), cwd: workspace, session_id: 'sess-1', transcript_path: '/tmp/t.json' });
const terminal = (command: string) => ({ command, explanation: 'run it', isBackground: false, goal: 'test' });
const rewriteNote = (tool: string) => `zut: the input of this ${tool} call was rewritten by the guard hook-guard before it ran; the result is that of the rewritten call.`;

describe.each(['cli.js', 'hook.js'])('%s', (file) => {
  beforeAll(() => {
    entry = path.join(tmp, file);
  });

  describe('zut-host hook --agent vscode PreToolUse', () => {
    it('denies with the guard and its reason (snake_case input)', async () => {
      const input = { ...common(), hook_event_name: 'PreToolUse', tool_name: 'run_in_terminal', tool_input: terminal('rm -rf /'), tool_use_id: 'call-1' };
      const r = await runHook('--agent vscode PreToolUse', JSON.stringify(input));
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'blocked by hook-guard: no rm -rf here' },
      });
      const saw = await guardSaw();
      expect(saw.some((l) => l.kind === 'event' && l.event === 'tool_call' && l.tool_id === 'call-1')).toBe(true);
      // Guards see VS Code's run_in_terminal as zut's bash (the shared table, src/host/calls/foreignTools.ts).
      expect(saw.find((l) => l.kind === 'intercept' && l.event === 'tool_call' && l.tool_id === 'call-1')).toMatchObject({ tool_name: 'bash', tool_args: { command: 'rm -rf /' } });
    }, 60_000);

    it('rewrites as updatedInput: the whole original input, unknown fields kept, never a permissionDecision (camelCase input)', async () => {
      const input = { timestamp: 1, cwd: workspace, sessionId: 'sess-2', hookEventName: 'PreToolUse', toolName: 'run_in_terminal', toolInput: terminal('echo ZUT_REWRITE'), toolUseId: 'c2' };
      const r = await runHook('PreToolUse', JSON.stringify(input));
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({
        hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: terminal('echo rewritten'), additionalContext: rewriteNote('run_in_terminal') },
      });
    }, 60_000);

    it('prints nothing when no guard has an opinion (never allow)', async () => {
      const input = { ...common(), hook_event_name: 'PreToolUse', tool_name: 'run_in_terminal', tool_input: terminal('ls'), tool_use_id: 'c3' };
      const r = await runHook('--agent vscode PreToolUse', JSON.stringify(input));
      expect(r).toMatchObject({ code: 0, stdout: '' });
    }, 60_000);

    it('skips only our own MCP tools (server `zut`, a tool this host serves): the guard never hears of them', async () => {
      const input = { ...common(), hook_event_name: 'PreToolUse', tool_name: 'mcp_zut_guard_status', tool_input: { command: 'rm -rf /' }, tool_use_id: 'own-1' };
      const r = await runHook('--agent vscode PreToolUse', JSON.stringify(input));
      expect(r).toMatchObject({ code: 0, stdout: '' });
      expect((await guardSaw()).some((l) => l.tool_id === 'own-1')).toBe(false);
    }, 60_000);

    it('another server named zut…, or a tool zut does not serve, is guarded like any tool (no free pass)', async () => {
      for (const [tool_name, id] of [['mcp_zut_not_ours', 'other-1'], ['mcp_zutx_guard_status', 'other-2'], ['mcp_zut-evil_guard_status', 'other-3']]) {
        const input = { ...common(), hook_event_name: 'PreToolUse', tool_name, tool_input: { command: 'x' }, tool_use_id: id };
        expect(await runHook('--agent vscode PreToolUse', JSON.stringify(input))).toMatchObject({ code: 0 });
        expect((await guardSaw()).some((l) => l.kind === 'intercept' && l.tool_id === id && l.tool_name === tool_name)).toBe(true);
      }
    }, 60_000);

    it('malformed input never crashes and fails closed: a deny naming zut (exit 0), the reason on stderr', async () => {
      for (const bad of ['not json', '[]', JSON.stringify({ ...common(), tool_name: 'x', tool_input: 'not an object' })]) {
        const r = await runHook('--agent vscode PreToolUse', bad);
        expect(r.code).toBe(0);
        expect(JSON.parse(r.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/^blocked by zut: zut-host hook: /) } });
        expect(r.stderr).toMatch(/^zut-host hook: /);
      }
    }, 60_000);
  });

  describe('zut-host hook --agent copilot-cli', () => {
    it('camelCase preToolUse: toolArgs as a JSON string, deny at top level', async () => {
      const input = { timestamp: 1, cwd: workspace, toolName: 'bash', toolArgs: JSON.stringify({ command: 'rm -rf ~', description: 'x' }) };
      const r = await runHook('--agent copilot-cli preToolUse', JSON.stringify(input));
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ permissionDecision: 'deny', permissionDecisionReason: 'blocked by hook-guard: no rm -rf here' });
    }, 60_000);

    it('camelCase preToolUse: a rewrite is modifiedArgs in the form it came (a JSON string), unknown fields kept', async () => {
      const input = { timestamp: 1, cwd: workspace, toolName: 'bash', toolArgs: JSON.stringify({ command: 'echo ZUT_REWRITE', description: 'x', initial_wait: 5 }) };
      const r = await runHook('--agent copilot-cli preToolUse', JSON.stringify(input));
      const out = JSON.parse(r.stdout) as { modifiedArgs: string };
      expect(Object.keys(out)).toEqual(['modifiedArgs']);
      expect(JSON.parse(out.modifiedArgs)).toEqual({ command: 'echo rewritten', description: 'x', initial_wait: 5 });
    }, 60_000);

    it('PascalCase PreToolUse: the VS Code shape', async () => {
      const input = { ...common(), hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf .' } };
      const r = await runHook('--agent copilot-cli PreToolUse', JSON.stringify(input));
      expect(JSON.parse(r.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    }, 60_000);

    it('camelCase preToolUse through the shared table: view/powershell/create as read/bash/write; a rewrite keeps the other fields', async () => {
      const pre = (toolName: string, args: Record<string, unknown>) => runHook('--agent copilot-cli preToolUse', JSON.stringify({ timestamp: 1, cwd: workspace, toolName, toolArgs: JSON.stringify(args) }));
      expect(JSON.parse((await pre('view', { path: '/home/me/secret.txt', view_range: [1, 5] })).stdout)).toEqual({ permissionDecision: 'deny', permissionDecisionReason: 'blocked by hook-guard: no secrets' });
      expect(JSON.parse((await pre('powershell', { command: 'rm -rf C:\\', description: 'x' })).stdout)).toMatchObject({ permissionDecision: 'deny' });
      const created = JSON.parse((await pre('create', { path: '/w/ZUT_MOVE/a.txt', file_text: 'hi', future: 1 })).stdout) as { modifiedArgs: string };
      expect(JSON.parse(created.modifiedArgs)).toEqual({ path: '/w/moved/a.txt', file_text: 'hi', future: 1 });
      const saw = await guardSaw();
      expect(saw.find((l) => l.kind === 'intercept' && l.tool_name === 'write')).toMatchObject({ tool_args: { path: '/w/ZUT_MOVE/a.txt', content: 'hi' } });
    }, 60_000);

    it('a rewrite the agent\'s tool cannot take (bash.cwd) is denied in the guard\'s name, naming why (fail closed)', async () => {
      const input = { timestamp: 1, cwd: workspace, toolName: 'bash', toolArgs: { command: 'echo ZUT_CWD', description: 'x' } };
      const r = await runHook('--agent copilot-cli preToolUse', JSON.stringify(input));
      expect(JSON.parse(r.stdout)).toEqual({
        permissionDecision: 'deny',
        permissionDecisionReason: 'blocked by hook-guard: modified_args cannot be applied to bash: bash.cwd has no counterpart in bash',
      });
    }, 60_000);

    it('apply_patch (a freeform tool: toolArgs is the patch text itself): each file is judged; a secret one denies the patch', async () => {
      const patch = (file: string) => `*** Begin Patch\n*** Add File: /w/readme.md\n+hi\n*** Update File: ${file}\n@@\n-a\n+b\n*** End Patch`;
      const pre = (text: string) => runHook('--agent copilot-cli preToolUse', JSON.stringify({ timestamp: 1, cwd: workspace, toolName: 'apply_patch', toolArgs: text }));
      expect(JSON.parse((await pre(patch('/w/secret.env'))).stdout)).toEqual({ permissionDecision: 'deny', permissionDecisionReason: 'blocked by hook-guard: no secrets' });
      expect(await pre(patch('/w/src/a.ts'))).toMatchObject({ code: 0, stdout: '' });
    }, 60_000);

    it('malformed preToolUse fails closed (a deny on stdout with exit 0, which Copilot CLI never skips; the reason on stderr)', async () => {
      const r = await runHook('--agent copilot-cli preToolUse', '{"toolName": "bash", "toolArgs": "{not json"}');
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('toolArgs is a string that is not JSON');
      expect(JSON.parse(r.stdout)).toMatchObject({ permissionDecision: 'deny' });
    }, 60_000);
  });

  describe('zut-host hook --agent claude', () => {
    it('PreToolUse Bash: deny; a rewrite is updatedInput with no decision (Claude Code\'s own rules stay in charge) and says so to the model', async () => {
      const base = { ...common(), hook_event_name: 'PreToolUse', tool_name: 'Bash', permission_mode: 'default' };
      const denied = await runHook('--agent claude PreToolUse', JSON.stringify({ ...base, tool_input: { command: 'rm -rf /', description: 'd' } }));
      expect(JSON.parse(denied.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'blocked by hook-guard: no rm -rf here' } });
      const rewritten = await runHook('--agent claude PreToolUse', JSON.stringify({ ...base, tool_input: { command: 'echo ZUT_REWRITE', description: 'd', timeout: 5000 } }));
      expect(JSON.parse(rewritten.stdout)).toEqual({
        hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'echo rewritten', description: 'd', timeout: 5000 }, additionalContext: rewriteNote('Bash') },
      });
    }, 60_000);

    it('PreToolUse through the shared table: guards see Bash as bash, Read/Write/Edit/MultiEdit as read/write/edit', async () => {
      const pre = (tool_name: string, tool_input: Record<string, unknown>) =>
        runHook('--agent claude PreToolUse', JSON.stringify({ ...common(), hook_event_name: 'PreToolUse', tool_name, tool_input, tool_use_id: `claude-${tool_name}` }));
      const denied = JSON.parse((await pre('Bash', { command: 'rm -rf /' })).stdout) as { hookSpecificOutput: Record<string, unknown> };
      expect(denied.hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: 'blocked by hook-guard: no rm -rf here' });
      expect((await guardSaw()).find((l) => l.kind === 'intercept' && l.tool_id === 'claude-Bash')).toMatchObject({ tool_name: 'bash', tool_args: { command: 'rm -rf /' } });
      for (const [tool, input] of [
        ['Read', { file_path: '/home/me/.ssh/secret', offset: 1, limit: 10 }],
        ['Edit', { file_path: '/etc/secret.conf', old_string: 'a', new_string: 'b' }],
        ['MultiEdit', { file_path: '/etc/secret.conf', edits: [{ old_string: 'a', new_string: 'b' }] }],
      ] as const) {
        expect(JSON.parse((await pre(tool, input)).stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'blocked by hook-guard: no secrets' } });
      }
    }, 60_000);

    it('a Write rewrite is updatedInput: file_path rewritten, content and unknown fields kept, no decision', async () => {
      const input = { ...common(), hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: '/w/ZUT_MOVE/a.txt', content: 'c', future_field: { x: 1 } } };
      const r = await runHook('--agent claude PreToolUse', JSON.stringify(input));
      expect(JSON.parse(r.stdout)).toEqual({
        hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { file_path: '/w/moved/a.txt', content: 'c', future_field: { x: 1 } }, additionalContext: rewriteNote('Write') },
      });
    }, 60_000);

    it('UserPromptSubmit: a turn_start block stops the prompt; otherwise the guard context is additionalContext', async () => {
      const blocked = await runHook('--agent claude UserPromptSubmit', JSON.stringify({ ...common(), hook_event_name: 'UserPromptSubmit', prompt: 'do the forbidden thing' }));
      expect(JSON.parse(blocked.stdout)).toEqual({ decision: 'block', reason: 'blocked by hook-guard: no forbidden prompts' });
      const ok = await runHook('--agent claude UserPromptSubmit', JSON.stringify({ ...common(), hook_event_name: 'UserPromptSubmit', prompt: 'hello' }));
      expect(JSON.parse(ok.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: '[hook-guard]\nguard context' } });
    }, 60_000);
  });

  describe('zut-host hook with no window: the extensions of every headless verb, failing closed', () => {
    it('an e guard in ~/.e/extensions denies rm -rf, and a zot extension\'s before_agent_start reaches SessionStart', async () => {
      const home = path.join(tmp, `eco-home-${file}`);
      await fs.mkdir(path.join(home, '.e', 'extensions'), { recursive: true });
      await fs.symlink(path.resolve(__dirname, '../fixtures/e/enode'), path.join(home, '.e', 'extensions', 'enode'));
      const zotHome = path.join(tmp, `zot-home-${file}`);
      await fs.mkdir(path.join(zotHome, 'extensions'), { recursive: true });
      await fs.symlink(path.resolve(__dirname, '../fixtures/zot/zot-node'), path.join(zotHome, 'extensions', 'zot-node'));
      const env = { HOME: home, ZOT_HOME: zotHome, ZUT_HOME: path.join(tmp, 'empty-zut-home') };
      const pre = { session_id: 's', cwd: workspace, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /x' } };
      const denied = await runHook('--agent claude PreToolUse', JSON.stringify(pre), { env });
      expect(JSON.parse(denied.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'blocked by enode: enode refuses bash' } });
      const started = await runHook('--agent claude SessionStart', JSON.stringify({ ...common(), hook_event_name: 'SessionStart', source: 'startup' }), { env });
      expect(JSON.parse(started.stdout)).toMatchObject({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: expect.stringContaining('[zot-node] Answer in English.') } });
      // `--no-e` / `--no-zot` leave them out, as for every other verb.
      expect(await runHook('--agent claude --no-e PreToolUse', JSON.stringify(pre), { env })).toMatchObject({ code: 0, stdout: '' });
    }, 90_000);

    it('a 6,000-deep tool input is denied in zut\'s name (no stack overflow); a 100 MB one too (over the input limit)', async () => {
      let nested = '[]';
      for (let i = 1; i < 6000; i++) nested = `[${nested}]`;
      const input = `{"session_id":"s","cwd":${JSON.stringify(workspace)},"hook_event_name":"PreToolUse","tool_name":"mcp__x__y","tool_input":{"params":${nested}}}`;
      const deepRun = await runHook('--agent claude PreToolUse', input);
      expect(deepRun.code).toBe(0);
      expect(JSON.parse(deepRun.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/^blocked by zut: zut cannot hand this call to its guards: the arguments are nested more than 512 levels deep/) } });
      const huge = JSON.stringify({ ...common(), hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: '/w/a', content: 'x'.repeat(100 * 1024 * 1024) } });
      const hugeRun = await runHook('--agent claude PreToolUse', huge, { timeoutMs: 60_000 });
      expect(hugeRun.code).toBe(0);
      expect(JSON.parse(hugeRun.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/^blocked by zut: .*input over \d+ bytes/) } });
    }, 120_000);

    it('install piped into a reader that is gone (| true): the file is written and the command ends quietly (exit 0, no EPIPE trace)', async () => {
      const home = path.join(tmp, `epipe-home-${file}`);
      await fs.mkdir(home, { recursive: true });
      const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
      const line = `sleep 0.2 | true; "${process.execPath}" "${entry}" hook install --agent claude --scope user | true; echo "exit=\${PIPESTATUS[0]}" >&2`;
      const r = await runProcess('bash', ['-c', line], { cwd: tmp, env, timeoutMs: 30_000 });
      expect(r.stderr).not.toMatch(/EPIPE|Error/);
      expect(r.stderr).toContain('exit=0');
      expect(JSON.parse(await fs.readFile(path.join(home, '.claude', 'settings.json'), 'utf8'))).toHaveProperty('hooks.PreToolUse');
    }, 60_000);
  });

  describe('zut-host hook events', () => {
    it('SessionStart, PostToolUse and Stop reach subscribers as session_start, tool_result and turn_end (session = the agent\'s)', async () => {
      const session = { ...common(), session_id: 'sess-events' };
      expect((await runHook('SessionStart', JSON.stringify({ ...session, hook_event_name: 'SessionStart', source: 'new' }))).code).toBe(0);
      const post = { ...session, hook_event_name: 'PostToolUse', tool_name: 'run_in_terminal', tool_input: terminal('ls'), tool_use_id: 'p1', tool_response: 'a\nb' };
      expect(await runHook('PostToolUse', JSON.stringify(post))).toMatchObject({ code: 0, stdout: '' });
      expect((await runHook('Stop', JSON.stringify({ ...session, hook_event_name: 'Stop', stop_hook_active: false }))).code).toBe(0);
      const saw = await guardSaw();
      const start = saw.find((l) => l.event === 'session_start') as { session?: { id: string } } | undefined;
      expect(start?.session?.id).toBe('sess-events');
      const result = saw.find((l) => l.event === 'tool_result' && l.tool_id === 'p1') as Record<string, unknown> | undefined;
      expect(result).toMatchObject({ status: 'completed', executed: true, result: { content: [{ type: 'text', text: 'a\nb' }], is_error: false } });
      expect(saw.some((l) => l.event === 'turn_end')).toBe(true);
    }, 60_000);

    it('project extensions of the input cwd run only with the opt-in (--allow-project / ZUT_ALLOW_PROJECT=1)', async () => {
      const project = path.join(tmp, 'project');
      await installGuard(path.join(project, '.zut', 'extensions'));
      const emptyHome = path.join(tmp, 'empty-home');
      const input = JSON.stringify({ ...common(), cwd: project, hook_event_name: 'PreToolUse', tool_name: 'run_in_terminal', tool_input: terminal('rm -rf /') });
      const without = await runHook('PreToolUse', input, { env: { ZUT_HOME: emptyHome } });
      expect(without).toMatchObject({ code: 0, stdout: '' });
      const flagged = await runHook('--allow-project PreToolUse', input, { env: { ZUT_HOME: emptyHome } });
      expect(JSON.parse(flagged.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
      const env = await runHook('PreToolUse', input, { env: { ZUT_HOME: emptyHome, ZUT_ALLOW_PROJECT: '1' } });
      expect(JSON.parse(env.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    }, 90_000);
  });
});
