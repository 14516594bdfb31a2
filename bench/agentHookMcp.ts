/**
 * Claude Code's PreToolUse through an `mcp_tool` hook (issue 38): `tools/call` of zut's MCP server's hook tool
 * (`zut-host mcp`, driven over stdio as Claude Code's MCP client drives it: one JSON-RPC line per call, on a server up
 * for the whole session) → the guard's deny — against a bare `node -e 0` command hook spawned through a shell, the
 * cheapest a command hook can be, alternating. Goal: p50 ≤ 0.25×.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { mcpHookArguments } from '../src/hooks/mcpHook';
import { runShell } from './agentHook';
import { fmt, ratios, summarize, type BenchRow } from './stats';

/** The longest one hook tool call may take here before the row fails (the hook budget is 25 s). */
const CALL_DEADLINE_MS = 25_000;

export async function benchAgentHookMcp(quick: boolean): Promise<BenchRow[]> {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'zut-bench-mcphook-')));
  const bundles = process.env.ZUT_BENCH_BUNDLE_DIR ?? path.join(process.cwd(), 'dist');
  const zutHome = path.join(dir, 'home');
  const g = path.join(zutHome, 'extensions', 'hook-guard');
  fs.mkdirSync(g, { recursive: true });
  fs.writeFileSync(path.join(g, 'extension.json'), JSON.stringify({ name: 'hook-guard', exec: process.execPath, args: [path.join(process.env.ZUT_REPO_ROOT ?? process.cwd(), 'test/unit/fixtures/hooks/guard.mjs')] }));
  const env = { ...process.env, HOME: dir, ZUT_HOME: zutHome, ZOT_HOME: path.join(dir, 'no-zot'), ZUT_HOOKS_DIR: path.join(dir, 'hooks'), GUARD_LOG: path.join(dir, 'guard.log') };
  const server = spawn(process.execPath, [path.join(bundles, 'cli.js'), 'mcp', '--cwd', dir], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  const waiting = new Map<number, (line: string) => void>();
  let buf = '';
  server.stdout.on('data', (d: Buffer) => {
    buf += d.toString();
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      const id = (JSON.parse(line) as { id?: unknown }).id;
      if (typeof id === 'number') waiting.get(id)?.(line);
    }
  });
  let next = 0;
  const request = (method: string, params: object) =>
    new Promise<string>((resolve, reject) => {
      const id = ++next;
      const timer = setTimeout(() => reject(new Error(`${method}: no answer in ${CALL_DEADLINE_MS} ms`)), CALL_DEADLINE_MS);
      waiting.set(id, (line) => {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(line);
      });
      server.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  const args = { ...mcpHookArguments('claude', 'PreToolUse'), session_id: 'b', cwd: dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: '{"command":"rm -rf /"}', tool_use_id: 't' };
  const call = async () => {
    const t0 = performance.now();
    const line = await request('tools/call', { name: 'zut_hook', arguments: args });
    if (!line.includes('deny')) throw new Error(`no deny from the hook tool: ${line}`);
    return performance.now() - t0;
  };
  const input = JSON.stringify({ cwd: dir, session_id: 'b', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' } });
  try {
    await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'claude-code', version: '2.1.328' } });
    server.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
    const ours: number[] = [];
    const base: number[] = [];
    const n = quick ? 8 : 30;
    for (let i = 0; i < n + 2; i++) {
      const a = await call();
      const b = (await runShell(`"${process.execPath}" -e 0`, input, env)).ms;
      if (i < 2) continue; // warm-ups: the first call waits for the guard's start
      ours.push(a);
      base.push(b);
    }
    const r = summarize(ratios(ours, base));
    return [
      {
        id: 'agent-hook-mcp',
        figure: "PreToolUse as Claude Code's mcp_tool hook: tools/call of zut's MCP server's hook tool → deny",
        ours: summarize(ours),
        baseline: summarize(base),
        baselineName: 'node -e 0 (a command hook, shell spawn)',
        unit: 'ms',
        ratio: r,
        goal: 'p50 ≤ 0.25× node -e 0',
        pass: r.median <= 0.25,
        notes: [`${ours.length} alternating pairs after 2 warm-ups, one server up throughout; hook tool p50 ${fmt(summarize(ours).median)} ms`],
      },
    ];
  } finally {
    server.stdin.end();
    server.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
