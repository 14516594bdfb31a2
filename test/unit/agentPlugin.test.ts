/**
 * zut's agent plugin: which route zut's tools take to VS Code's agent (src/ui-model/agentRoute.ts), the launcher's
 * path for the plugin's static script (agentSetup/launcherPointer.ts + agent-plugin/bin/zut-mcp), the window's relay
 * published with a standing token (mcp/windowRendezvous.ts, relayServer.ts) and `zut-host mcp --window` relaying to
 * it — the real CLI under the MCP SDK's client — or serving by itself when no window published.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { writeLauncherPointer } from '../../src/agentSetup/launcherPointer';
import { Manager } from '../../src/host/manager';
import { RelayServer } from '../../src/mcp/relayServer';
import { findMcpWindow, mcpWindowFile, publishMcpWindow } from '../../src/mcp/windowRendezvous';
import { connectRelay } from '../../src/mcp/windowRelay';
import { agentToolsRoute, pluginBlockedBy, readHarnessSettings, type HarnessSettings } from '../../src/ui-model/agentRoute';
import { builtCli } from '../helpers/built';
import { RecordingUi, cleanupTemps, keepManager, nodeExt, stopManagers, tempDir, zutHome } from '../helpers/hostFixtures';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await stopManagers();
});
afterAll(cleanupTemps);

const LOCAL: HarnessSettings = readHarnessSettings(() => undefined);
const SCRIPT = path.resolve(__dirname, '../../agent-plugin/bin/zut-mcp');

describe('the route of zut tools to VS Code agent', () => {
  it('settings VS Code does not have, and a non-boolean value, read as the fallbacks', () => {
    expect(LOCAL).toEqual({ defaultToCopilotHarness: false, preferCopilotHarness: false, localAgentEnabled: true, claudeAgentEnabled: false, codexAgentEnabled: false, pluginsEnabled: true });
    expect(readHarnessSettings((k) => (k === 'chat.plugins.enabled' ? 'no' : undefined)).pluginsEnabled).toBe(true);
  });

  it('auto: the plugin when an Agent Host harness is in use, the provider otherwise; off is off; never the plugin where VS Code loads none', () => {
    expect(agentToolsRoute(true, 'auto', LOCAL, true, 'linux')).toBe('provider');
    for (const k of ['defaultToCopilotHarness', 'preferCopilotHarness', 'claudeAgentEnabled', 'codexAgentEnabled'] as const) expect(agentToolsRoute(true, 'auto', { ...LOCAL, [k]: true }, true, 'linux')).toBe('plugin');
    expect(agentToolsRoute(true, 'auto', { ...LOCAL, localAgentEnabled: false }, true, 'linux')).toBe('plugin');
    expect(agentToolsRoute(true, 'auto', { ...LOCAL, claudeAgentEnabled: true, pluginsEnabled: false }, true, 'linux')).toBe('provider');
    expect(agentToolsRoute(true, 'plugin', LOCAL, true, 'linux')).toBe('plugin');
    expect(agentToolsRoute(true, 'plugin', LOCAL, false, 'linux')).toBe('provider');
    expect(agentToolsRoute(true, 'plugin', { ...LOCAL, pluginsEnabled: false }, true, 'linux')).toBe('provider');
    expect(agentToolsRoute(true, 'provider', { ...LOCAL, claudeAgentEnabled: true }, true, 'linux')).toBe('provider');
    expect(agentToolsRoute(false, 'plugin', LOCAL, true, 'linux')).toBe('off');
  });

  it("Windows: auto and plugin take the provider (the plugin's server starts with sh), with the reason; macOS takes the plugin as Linux does", () => {
    const agentHost = { ...LOCAL, defaultToCopilotHarness: true };
    for (const via of ['auto', 'plugin'] as const) {
      expect(agentToolsRoute(true, via, agentHost, true, 'win32'), via).toBe('provider');
      expect(agentToolsRoute(true, via, agentHost, true, 'darwin'), via).toBe('plugin');
    }
    expect(agentToolsRoute(true, 'provider', agentHost, true, 'win32')).toBe('provider');
    expect(agentToolsRoute(false, 'plugin', agentHost, true, 'win32')).toBe('off');
    expect(pluginBlockedBy('win32')).toMatch(/starts its server with sh/);
    for (const p of ['linux', 'darwin', 'freebsd'] as const) expect(pluginBlockedBy(p), p).toBeUndefined();
  });
});

describe("the plugin's script finds the launcher through the pointer", () => {
  const run = (dir: string) => spawnSync('sh', [SCRIPT, '--window'], { env: { ...process.env, ZUT_HOOKS_DIR: dir }, encoding: 'utf8' });
  const fakeLauncher = (root: string) => {
    const f = path.join(root, 'zut-host');
    fs.writeFileSync(f, '#!/bin/sh\necho "launched: $*"\n', { mode: 0o755 });
    return f;
  };

  it('runs `<launcher> mcp <args>` from a private pointer (0600), rewritten only when it changes', async () => {
    const root = tempDir('zut-plugin-');
    const dir = path.join(root, 'hooks');
    const first = await writeLauncherPointer(fakeLauncher(root), dir);
    expect(first.written).toBe(true);
    expect(fs.statSync(first.file!).mode & 0o777).toBe(0o600);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect((await writeLauncherPointer(path.join(root, 'zut-host'), dir)).written).toBe(false);
    const r = run(dir);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('launched: mcp --window\n');
  });

  it('refuses a missing pointer, one writable by others, a link, and a launcher that is gone — naming the fix', async () => {
    const root = tempDir('zut-plugin-');
    const dir = path.join(root, 'hooks');
    expect(run(dir)).toMatchObject({ status: 1, stderr: expect.stringContaining('start VS Code with the zut extension once') });
    const { file } = await writeLauncherPointer(fakeLauncher(root), dir);
    fs.chmodSync(file!, 0o622);
    expect(run(dir)).toMatchObject({ status: 1, stderr: expect.stringContaining('writable by others: refused') });
    fs.rmSync(file!);
    const elsewhere = path.join(root, 'elsewhere');
    fs.writeFileSync(elsewhere, `${path.join(root, 'zut-host')}\n`, { mode: 0o600 });
    fs.symlinkSync(elsewhere, file!);
    expect(run(dir)).toMatchObject({ status: 1, stderr: expect.stringContaining('missing or not yours') });
    fs.rmSync(file!);
    await writeLauncherPointer(path.join(root, 'gone'), dir);
    expect(run(dir)).toMatchObject({ status: 1, stderr: expect.stringContaining('is gone') });
    expect(await writeLauncherPointer('relative/zut-host', dir)).toMatchObject({ written: false, skipped: expect.stringContaining('absolute') });
  });
});

describe("the window's relay for the plugin's servers", () => {
  async function windowHost() {
    const z = zutHome();
    nodeExt(z.exts, { name: 'kit', tools: [{ name: 'echo', annotations: { readOnlyHint: true } }] });
    const host = new Manager({ folders: [], zutHome: z.home, ui: new RecordingUi(), hostVersion: 't' });
    keepManager(host);
    await host.start();
    const server = await RelayServer.listen({ host, serverVersion: '9.9.9', origin: 'agent' });
    cleanups.push(() => server.dispose());
    return { server, zut: z.home };
  }

  it('a standing token admits any number of relays until revoked; a wrong one never', async () => {
    const { server } = await windowHost();
    const token = server.standingToken();
    expect(server.standingToken()).toBe(token);
    for (let i = 0; i < 3; i++) {
      const { socket } = await connectRelay(server.address, token);
      socket.destroy();
    }
    await expect(connectRelay(server.address, 'f'.repeat(64))).rejects.toThrow(/refused|closed/);
    server.revokeStanding();
    await expect(connectRelay(server.address, token)).rejects.toThrow(/refused|closed/);
  });

  it('is found by the pid that started the server, else by its folder or a parent; a gone writer or a file others can write is not', () => {
    const dir = path.join(tempDir('zut-plugin-'), 'hooks');
    const project = tempDir('zut-project-');
    fs.mkdirSync(path.join(project, 'src'));
    const p = publishMcpWindow('/tmp/relay.sock', 'tok', [project], dir);
    expect(findMcpWindow(process.pid, '/', dir)).toMatchObject({ address: '/tmp/relay.sock', token: 'tok', pid: process.pid });
    expect(findMcpWindow(1, path.join(project, 'src'), dir)).toMatchObject({ address: '/tmp/relay.sock' });
    expect(findMcpWindow(1, '/', dir)).toBeUndefined();
    fs.chmodSync(mcpWindowFile(dir, process.pid, project), 0o666);
    expect(findMcpWindow(process.pid, project, dir)).toBeUndefined();
    p.unpublish();
    expect(fs.readdirSync(dir).filter((n) => n.startsWith('m-'))).toEqual([]);
    // A writer that is gone (a pid no process has) is skipped.
    const stale = mcpWindowFile(dir, 2 ** 22 + 7, project);
    fs.writeFileSync(stale, JSON.stringify({ kind: 'window', address: '/x', token: 't', pid: 2 ** 22 + 7, folder: project }), { mode: 0o600 });
    expect(findMcpWindow(2 ** 22 + 7, project, dir)).toBeUndefined();
  });

  it('zut-host mcp --window is served by the window that started it, and by itself when none published', async () => {
    const { server } = await windowHost();
    const dir = path.join(tempDir('zut-plugin-'), 'hooks');
    const own = zutHome();
    nodeExt(own.exts, { name: 'solo', tools: [{ name: 'alone' }] });
    const connect = async () => {
      const transport = new StdioClientTransport({ command: process.execPath, args: [builtCli(), 'mcp', '--window'], env: { ...(process.env as Record<string, string>), ZUT_HOOKS_DIR: dir, ZUT_HOME: own.home }, stderr: 'pipe' });
      const client = new Client({ name: 'test', version: '1' });
      await client.connect(transport);
      cleanups.push(() => client.close());
      return client;
    };
    const p = publishMcpWindow(server.address, server.standingToken(), [], dir);
    cleanups.push(p.unpublish);
    const viaWindow = await connect();
    expect(viaWindow.getServerVersion()).toMatchObject({ name: 'zut', version: '9.9.9' });
    expect((await viaWindow.listTools()).tools.map((t) => t.name)).toContain('echo');
    p.unpublish();
    const alone = await connect();
    expect(alone.getServerVersion()?.version).not.toBe('9.9.9');
    const deadline = Date.now() + 15_000;
    let names: string[] = [];
    while (Date.now() < deadline && !names.includes('alone')) {
      names = (await alone.listTools()).tools.map((t) => t.name);
      if (!names.includes('alone')) await new Promise((r) => setTimeout(r, 200));
    }
    expect(names).toContain('alone');
    expect(names).not.toContain('echo');
  });
});
