/**
 * The installable CLI (issue 23, point 2): `scripts/pack-cli.mjs` packs `zut-host` (the bundled CLI and the SDK, no
 * VS Code parts, no dependencies); the tarball installs into an empty folder with npm offline, and `npx zut-host`
 * there answers --help, runs doctor, and serves a tool over MCP (initialize + tools/list on stdio).
 */
import { execFileSync, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeNodeExtension } from '../helpers/fakeExtension';
import { cleanupTemps, tempDir } from '../helpers/temp';
import { isolatedEnv, runProcess } from '../helpers/runProcess';
import { onJsonLines } from '../helpers/stdioDriver';

let tmp: string;
let app: string;
let env: NodeJS.ProcessEnv;
const NPX = process.platform === 'win32' ? 'npx.cmd' : 'npx';

beforeAll(async () => {
  tmp = tempDir('zut-host-pkg-');
  const { packCli } = await import('../../scripts/pack-cli.mjs');
  const tarball = await packCli({ outDir: path.join(tmp, 'out') });
  app = path.join(tmp, 'app');
  await fs.mkdir(app);
  // No network: the package has no dependencies, so an offline install from the tarball must work.
  env = isolatedEnv(tmp, path.join(tmp, 'zut'), { npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' });
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: app, env, stdio: 'pipe' });
  writeNodeExtension(
    path.join(tmp, 'zut', 'extensions'),
    'adder',
    [
      "const emit = (o) => process.stdout.write(JSON.stringify(o) + '\\n');",
      "emit({ type: 'hello', protocol_version: 2, name: 'adder', version: '1.0.0', capabilities: ['tools'] });",
      "require('node:readline').createInterface({ input: process.stdin }).on('line', (l) => {",
      '  const m = JSON.parse(l);',
      "  if (m.type === 'hello_ack') { emit({ type: 'register_tool', name: 'add', description: 'a+b', schema: { type: 'object' } }); emit({ type: 'ready' }); }",
      "  else if (m.type === 'tool_call') emit({ type: 'tool_result', id: m.id, content: [{ type: 'text', text: String(m.args.a + m.args.b) }] });",
      "  else if (m.type === 'shutdown') { emit({ type: 'shutdown_ack' }); process.exit(0); }",
      '});',
    ].join('\n'),
    { manifest: { version: '1.0.0' } },
  );
}, 180_000);
afterAll(async () => {
  cleanupTemps();
});

describe('the zut-host package', () => {
  it('holds the CLI, the hook entry and the SDK only, and npx zut-host --help and doctor work from an offline install', async () => {
    const installed = path.join(app, 'node_modules', 'zut-host');
    expect((await fs.readdir(installed)).sort()).toEqual(['LICENSE', 'README.md', 'dist', 'package.json']);
    expect((await fs.readdir(path.join(installed, 'dist'))).sort()).toEqual(['cli.js', 'hook.js', 'sdk']);
    expect(await fs.readdir(path.join(installed, 'node_modules')).catch(() => [])).toEqual([]);
    const help = await runProcess(NPX, ['--offline', 'zut-host', '--help'], { cwd: app, env });
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^usage:\n {2}zut-host doctor/);
    const doc = await runProcess(NPX, ['--offline', 'zut-host', 'doctor', '--json'], { cwd: app, env });
    expect(doc.code, doc.stderr).toBe(0);
    expect(JSON.parse(doc.stdout).extensions).toEqual([expect.objectContaining({ name: 'adder', scope: 'global', status: 'ok' })]);
  }, 60_000);

  it('npx zut-host mcp answers initialize and tools/list over stdio', async () => {
    const child = spawn(NPX, ['--offline', 'zut-host', 'mcp', '--cwd', app], { cwd: app, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const replies = new Map<number, Record<string, unknown>>();
    onJsonLines(child.stdout, (m) => {
      if (typeof m.id === 'number') replies.set(m.id, m);
    });
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const reply = async (id: number, method: string, params: object = {}) => {
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
      for (const end = Date.now() + 30_000; Date.now() < end; await new Promise((r) => setTimeout(r, 25))) {
        const r = replies.get(id);
        if (r) return r;
      }
      throw new Error(`no reply to ${method}`);
    };
    try {
      const init = await reply(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pkg-test', version: '1' } });
      expect(init.result).toMatchObject({ serverInfo: { name: expect.any(String) } });
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
      const list = await reply(2, 'tools/list');
      expect((list.result as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual(['add']);
    } finally {
      child.stdin.end();
    }
    expect(await exited).toBe(0);
  }, 60_000);
});
