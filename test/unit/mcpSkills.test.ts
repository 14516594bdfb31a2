/**
 * Bundled skills over MCP: `zut-host mcp` (the real CLI bundle) driven by `@modelcontextprotocol/sdk`'s client with the
 * example `briefing` extension (skills/weather-briefing) — the `skill` tool lists the skill's name and description up
 * front and returns its SKILL.md on demand through the guarded path; each skill is also a prompt and `skill://`
 * resources; `zut-host tool skill` loads it headless. Then the handler in process: a stopped extension's skills go
 * (list_changed), a restarted one's come back.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Manager } from '../../src/host/manager';
import type { McpConnection } from '../../src/mcp/server';
import { RecordingUi, cleanupTemps, keepManager, nodeExt, stopManagers, tempDir, until, zutHome } from '../helpers/hostFixtures';
import { builtCli } from '../helpers/built';
import { mcpDriver } from '../helpers/mcpDriver';
import { isolatedEnv, runProcess } from '../helpers/runProcess';
import { copyExample, killAll } from '../helpers/stdioDriver';

const conns: McpConnection[] = [];
afterEach(async () => {
  for (const c of conns.splice(0)) c.dispose();
  await stopManagers();
  await killAll();
});
afterAll(cleanupTemps);

const text = (r: unknown) => ((r as { content: { type: string; text?: string }[] }).content.find((c) => c.type === 'text')?.text ?? '');
const DESCRIPTION = "Write a short travel weather briefing for one or more cities with the weather extension's tools.";

/** The example briefing extension (a temp copy) and a watcher that records the `tool_call` events it is sent. */
function project() {
  const z = zutHome();
  const briefing = copyExample('briefing');
  const watch = nodeExt(tempDir('zut-mcp-skills-'), { name: 'watch', subscribe: { events: ['tool_call'] }, tools: [{ name: 'seen', mode: 'events' }] });
  return { home: z.home, cwd: tempDir('zut-mcp-skills-cwd-'), exts: [briefing, watch], folder: fs.realpathSync(path.join(briefing, 'skills', 'weather-briefing')) };
}

/** An MCP SDK client connected to `zut-host mcp` over the project's extensions. */
async function connect(p: ReturnType<typeof project>): Promise<Client> {
  const args = [builtCli(), 'mcp', '--cwd', p.cwd, ...p.exts.flatMap((e) => ['--ext', e])];
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args, env: isolatedEnv(p.home, p.home) as Record<string, string>, stderr: 'pipe' }));
  return client;
}

describe('zut-host mcp: bundled skills (SDK client)', () => {
  it('the skill tool offers name and description up front; its SKILL.md comes on demand, through the guarded path', async () => {
    const p = project();
    const client = await connect(p);
    try {
      expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged: true }, prompts: { listChanged: true }, resources: { listChanged: true } });
      const { tools } = await client.listTools();
      const skill = tools.find((t) => t.name === 'skill')!;
      expect(skill.description).toContain(`- weather-briefing (from briefing): ${DESCRIPTION}`);
      expect(skill.inputSchema).toMatchObject({ type: 'object', properties: { name: { enum: ['weather-briefing'] } }, required: ['name'] });
      expect(skill.annotations).toMatchObject({ readOnlyHint: true });

      const loaded = text(await client.callTool({ name: 'skill', arguments: { name: 'weather-briefing' } }));
      expect(loaded.split('\n')[0]).toBe(`Skill "weather-briefing" of the zut extension briefing. Paths in it are relative to ${p.folder}.`);
      expect(loaded).toContain('# Weather briefing');
      expect(loaded).toContain('[template.md](template.md)');
      // The guards' path: the watcher was sent the `skill` call's tool_call event.
      expect(JSON.parse(text(await client.callTool({ name: 'seen', arguments: {} })))).toContainEqual(expect.objectContaining({ type: 'event', event: 'tool_call', tool_name: 'skill', tool_args: { name: 'weather-briefing' } }));
      const unknown = await client.callTool({ name: 'skill', arguments: { name: 'nope' } });
      expect(unknown.isError).toBe(true);
      expect(text(unknown)).toBe('skill: unknown skill "nope"; available: weather-briefing');
    } finally {
      await client.close();
    }
  });

  it('each skill is a prompt (the SKILL.md as the user message) and skill:// resources (any file of its folder, nothing outside)', async () => {
    const p = project();
    const client = await connect(p);
    try {
      expect((await client.listPrompts()).prompts).toEqual([{ name: 'weather-briefing', title: 'weather-briefing (skill of briefing)', description: expect.stringContaining(DESCRIPTION) }]);
      const prompt = await client.getPrompt({ name: 'weather-briefing' });
      expect(prompt.messages).toHaveLength(1);
      expect(prompt.messages[0]).toMatchObject({ role: 'user', content: { type: 'text', text: expect.stringContaining('# Weather briefing') } });
      await expect(client.getPrompt({ name: 'nope' })).rejects.toThrow(/unknown prompt: nope/);

      const uri = 'skill://briefing/weather-briefing/SKILL.md';
      expect((await client.listResources()).resources).toEqual([{ uri, name: 'weather-briefing', title: 'weather-briefing (skill of briefing)', description: expect.stringContaining(DESCRIPTION), mimeType: 'text/markdown' }]);
      expect((await client.listResourceTemplates()).resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: 'skill://{extension}/{skill}/{+path}' })]);
      const md = await client.readResource({ uri });
      expect(md.contents).toEqual([{ uri, mimeType: 'text/markdown', text: fs.readFileSync(path.join(p.folder, 'SKILL.md'), 'utf8') }]);
      const template = await client.readResource({ uri: 'skill://briefing/weather-briefing/template.md' });
      expect(template.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: expect.stringContaining('## <City>, <n> days') });
      for (const outside of ['skill://briefing/weather-briefing/../../extension.json', 'skill://briefing/weather-briefing/%2E%2E/%2E%2E/briefing.mjs', 'skill://briefing/nope/SKILL.md', 'file:///etc/passwd']) {
        await expect(client.readResource({ uri: outside }), outside).rejects.toThrow(/resource not found/);
      }
    } finally {
      await client.close();
    }
  });
});

describe('zut-host tool skill', () => {
  it("the host's skill tool headless while an extension bundles skills; without one there is no such tool", async () => {
    const p = project();
    const run = (exts: string[]) => runProcess(process.execPath, [builtCli(), 'tool', ...exts.flatMap((e) => ['--ext', e]), 'skill', '{"name":"weather-briefing"}'], { cwd: p.cwd, env: isolatedEnv(p.home, p.home) });
    const r = await run(p.exts);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ext: 'briefing', isError: false, content: [{ type: 'text', text: expect.stringContaining('# Weather briefing') }] });
    const none = await run([p.exts[1]!]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^zut-host: no tool "skill" \(registered: seen\)/);
  });
});

describe('MCP handler: skills follow their extension', () => {
  it('a stopped extension takes its skill away (tools, prompts and resources list_changed); started again, it is back', async () => {
    const p = project();
    const host = new Manager({ folders: [], zutHome: p.home, ui: new RecordingUi(), hostVersion: 't', extensionPaths: p.exts });
    keepManager(host);
    await host.start();
    const { conn, sent, request: send } = mcpDriver(host);
    conns.push(conn);
    const request = async (method: string, params: object = {}) => (await send(method, params)).result as Record<string, unknown[]>;
    const told = (method: string) => sent.filter((m) => m.method === method).length;
    conn.handle({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect((await request('prompts/list')).prompts).toHaveLength(1);

    await host.stopExtension('briefing');
    await until(() => told('notifications/prompts/list_changed') === 1, 5000, 'prompts/list_changed');
    expect([told('notifications/tools/list_changed'), told('notifications/resources/list_changed')]).toEqual([1, 1]);
    expect((await request('prompts/list')).prompts).toEqual([]);
    expect((await request('resources/list')).resources).toEqual([]);
    expect((await request('tools/list')).tools.map((t) => (t as { name: string }).name)).toEqual(['seen']);

    await host.startExtension('briefing');
    await until(() => told('notifications/prompts/list_changed') === 2, 5000, 'prompts/list_changed again');
    expect((await request('tools/list')).tools.map((t) => (t as { name: string }).name)).toEqual(['seen', 'skill']);
  });

  it('a SKILL.md at the top of its extension: only it is served (the folder holds the extension\'s code and state)', async () => {
    const z = zutHome();
    const top = nodeExt(z.exts, { name: 'top', tools: [] }, { skills: ['SKILL.md'] });
    fs.writeFileSync(path.join(top, 'SKILL.md'), '---\nname: top\ndescription: at the top\n---\nbody\n');
    fs.writeFileSync(path.join(top, 'token.json'), '{"secret":1}');
    const host = keepManager(new Manager({ folders: [], zutHome: z.home, ui: new RecordingUi(), hostVersion: 't' }));
    await host.start();
    const { conn, request } = mcpDriver(host);
    conns.push(conn);
    const read = (uri: string) => request('resources/read', { uri });
    expect((await read('skill://top/top/SKILL.md')).result).toMatchObject({ contents: [{ text: expect.stringContaining('body') }] });
    expect((await read('skill://top/top/token.json')).error).toMatchObject({ code: -32002, message: expect.stringContaining('only its SKILL.md is served') });
  });

  it('a skill folder turned into a link after start serves nothing: reads are confined to the folders as they resolve now', async () => {
    const z = zutHome();
    const ext = nodeExt(z.exts, { name: 'moved', tools: [] }, { skills: ['skills'] });
    const folder = path.join(ext, 'skills', 'notes');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'SKILL.md'), '---\nname: notes\ndescription: notes\n---\nbody\n');
    fs.writeFileSync(path.join(folder, 'a.md'), 'a');
    const host = keepManager(new Manager({ folders: [], zutHome: z.home, ui: new RecordingUi(), hostVersion: 't' }));
    await host.start();
    const { conn, request: call } = mcpDriver(host);
    conns.push(conn);
    expect((await call('resources/read', { uri: 'skill://moved/notes/a.md' })).result).toMatchObject({ contents: [{ text: 'a' }] });

    // After discovery the folder becomes a link to a folder outside the extension (one with a SKILL.md of its own).
    const elsewhere = tempDir('zut-mcp-skills-elsewhere-');
    fs.writeFileSync(path.join(elsewhere, 'id_rsa'), 'PRIVATE KEY');
    fs.writeFileSync(path.join(elsewhere, 'SKILL.md'), 'not the skill');
    fs.rmSync(folder, { recursive: true });
    fs.symlinkSync(elsewhere, folder);
    for (const uri of ['skill://moved/notes/id_rsa', 'skill://moved/notes/SKILL.md']) {
      const r = await call('resources/read', { uri });
      expect(r.error, uri).toMatchObject({ code: -32002, message: expect.stringMatching(/outside its extension/) });
      expect(JSON.stringify(r)).not.toMatch(/PRIVATE KEY|not the skill/);
    }
    const prompt = await call('prompts/get', { name: 'notes' });
    expect(prompt.error).toMatchObject({ message: expect.stringMatching(/outside its extension/) });
    expect(JSON.stringify(prompt)).not.toContain('not the skill');
  });
});
