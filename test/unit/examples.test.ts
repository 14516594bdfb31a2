/**
 * The example zut extensions (examples/workspace/.zut/extensions), run as real processes from temp copies:
 * handshake, every documented command/tool/intercept/panel behaviour, shutdown and EOF.
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, inflateSync } from 'node:zlib';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ExtFrame, ExtFrameOf, HostFrame } from '../../src/protocol';
import {
  EXAMPLES_DIR,
  StdioDriver,
  copyExample,
  handshake,
  helloAck,
  killAll,
  readManifest,
  type Handshake,
} from '../helpers/stdioDriver';
import { cleanupTemps, tempDir } from '../helpers/temp';

afterEach(killAll);
afterAll(cleanupTemps);

const ENABLED = ['snippets', 'weather', 'guard', 'briefing', 'todo', 'progress', 'shell', 'sdk-demo'] as const;

/** Starts a temp copy of an example and completes the handshake. */
async function boot(name: string, ack?: (d: StdioDriver) => HostFrame): Promise<{ d: StdioDriver; hs: Handshake }> {
  const d = StdioDriver.start(copyExample(name));
  const hs = await handshake(d, ack ? ack(d) : helloAck(d));
  return { d, hs };
}

let seq = 0;
const nextId = (): string => `req-${++seq}`;

async function command(d: StdioDriver, name: string, args = ''): Promise<ExtFrameOf<'command_response'>> {
  const id = nextId();
  d.send({ type: 'command_invoked', id, name, args });
  return d.next('command_response', 5000, (f) => f.id === id);
}

async function tool(d: StdioDriver, name: string, args: unknown, timeoutMs = 5000): Promise<ExtFrameOf<'tool_result'>> {
  const id = nextId();
  d.send({ type: 'tool_call', id, name, args });
  return d.next('tool_result', timeoutMs, (f) => f.id === id);
}

async function intercept(d: StdioDriver, fields: Omit<Extract<HostFrame, { type: 'event_intercept' }>, 'type' | 'id'>) {
  const id = nextId();
  d.send({ type: 'event_intercept', id, ...fields });
  return d.next('event_intercept_response', 5000, (f) => f.id === id);
}

const names = (frames: ExtFrame[], type: 'register_command' | 'register_tool'): string[] =>
  frames.flatMap((f) => (f.type === type ? [f.name] : []));

// ---------------------------------------------------------------------------------------------- all examples

describe.each(ENABLED)('example %s: manifest and lifecycle', (name) => {
  it('has a manifest whose name matches its directory and an executable exec', () => {
    const dir = join(EXAMPLES_DIR, name);
    const m = readManifest(dir);
    expect(m.name).toBe(name);
    expect(m.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(m.enabled).toBe(true);
    expect(m.language).toBeTruthy();
    expect(m.description).toBeTruthy();
    expect(() => accessSync(join(dir, m.exec), constants.X_OK)).not.toThrow();
  });

  it('says hello first (protocol 2, its manifest name), registers after hello_ack, then ready', async () => {
    const { d, hs } = await boot(name);
    expect(hs.hello.protocol_version).toBe(2);
    expect(hs.hello.name).toBe(d.manifest.name);
    expect(hs.hello.version).toBe(d.manifest.version);
    expect(hs.registrations.length).toBeGreaterThan(0);
    for (const f of hs.registrations) expect(['register_command', 'register_tool', 'subscribe']).toContain(f.type);
    for (const f of hs.registrations) {
      if (f.type === 'register_command' || f.type === 'register_tool') expect(f.description).toBeTruthy();
    }
  });

  it('answers shutdown with shutdown_ack and exits 0', async () => {
    const { d } = await boot(name);
    d.send({ type: 'shutdown' });
    await d.next('shutdown_ack');
    expect(await d.waitExit()).toEqual({ code: 0, signal: null });
    expect(d.pending).toEqual([]);
  });

  it('exits 0 when stdin closes', async () => {
    const { d } = await boot(name);
    d.closeStdin();
    expect(await d.waitExit()).toEqual({ code: 0, signal: null });
  });

  it('exits non-zero without registering when hello_ack has another protocol version', async () => {
    const d = StdioDriver.start(copyExample(name));
    await d.next('hello');
    d.send({ ...helloAck(d), protocol_version: 3 } as HostFrame);
    const exit = await d.waitExit();
    expect(exit.code).not.toBe(0);
    expect(d.frames.map((f) => f.type)).toEqual(['hello']);
  });
});

describe('example disabled-demo', () => {
  it('ships disabled, and works if started anyway', async () => {
    expect(readManifest(join(EXAMPLES_DIR, 'disabled-demo')).enabled).toBe(false);
    const { d, hs } = await boot('disabled-demo');
    expect(hs.hello.name).toBe('disabled-demo');
    expect(names(hs.registrations, 'register_command')).toEqual(['disabled-demo']);
    expect(await command(d, 'disabled-demo')).toMatchObject({ action: 'display', display: 'disabled-demo is running' });
  });
});

// ---------------------------------------------------------------------------------------------- snippets

describe('example snippets (python)', () => {
  it('registers its commands', async () => {
    const { hs } = await boot('snippets');
    expect(names(hs.registrations, 'register_command')).toEqual(['explain', 'license', 'snippet', 'wordcount', 'snippets']);
  });

  it('/explain answers action prompt built from the args; no args is an error', async () => {
    const { d } = await boot('snippets');
    const r = await command(d, 'explain', 'event loops');
    expect(r.action).toBe('prompt');
    expect(r.prompt).toBe(
      'Explain event loops to an experienced developer in under 150 words: what it is, when to use it, and one short example.',
    );
    expect(await command(d, 'explain', '')).toMatchObject({ action: 'noop', error: 'usage: /explain <topic>' });
  });

  it('/license and /snippet answer action insert', async () => {
    const { d } = await boot('snippets');
    expect(await command(d, 'license')).toMatchObject({ action: 'insert', insert: '// SPDX-License-Identifier: MIT\n' });
    expect(await command(d, 'license', 'apache-2.0')).toMatchObject({
      action: 'insert',
      insert: '// SPDX-License-Identifier: Apache-2.0\n',
    });
    expect(await command(d, 'snippet', 'sh-strict')).toMatchObject({ action: 'insert', insert: '#!/bin/sh\nset -eu\n' });
    const py = await command(d, 'snippet', 'py-main');
    expect(py.insert).toContain('if __name__ == "__main__":');
  });

  it('/snippet with an unknown name answers noop with an error', async () => {
    const { d } = await boot('snippets');
    const r = await command(d, 'snippet', 'nope');
    expect(r).toMatchObject({ action: 'noop', error: 'unknown snippet "nope" (try /snippets)' });
    expect(r.insert).toBeUndefined();
    expect(await command(d, 'license', 'WTFPL')).toMatchObject({ action: 'noop' });
  });

  it('/wordcount and /snippets answer action display', async () => {
    const { d } = await boot('snippets');
    expect(await command(d, 'wordcount', 'the quick  brown fox')).toMatchObject({
      action: 'display',
      display: '4 words, 20 characters, 1 line',
    });
    expect((await command(d, 'wordcount', 'one')).display).toBe('1 word, 3 characters, 1 line');
    expect(await command(d, 'snippets')).toMatchObject({
      action: 'display',
      display:
        'Snippets:\ngitignore-node - .gitignore for a Node project\npy-main - Python entry point\n' +
        'sh-strict - POSIX sh strict-mode header\nts-test - vitest test skeleton',
    });
  });
});

// ---------------------------------------------------------------------------------------------- weather

/** Checks a PNG byte by byte: signature, chunk CRCs, IHDR, and that IDAT inflates to the declared size. */
function checkPng(png: Buffer): { width: number; height: number } {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const chunks: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < png.length; ) {
    const len = png.readUInt32BE(at);
    const type = png.toString('ascii', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + len);
    expect(png.readUInt32BE(at + 8 + len), `CRC of ${type}`).toBe(crc32(png.subarray(at + 4, at + 8 + len)));
    chunks.push({ type, data });
    at += 12 + len;
  }
  expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
  const ihdr = chunks[0]!.data;
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  expect([ihdr[8], ihdr[9]]).toEqual([8, 2]); // 8-bit RGB
  expect(inflateSync(chunks[1]!.data).length).toBe(height * (1 + width * 3));
  return { width, height };
}

describe('example weather (node)', () => {
  it('advertises tool_cancel and registers four tools, weather_alerts deferred', async () => {
    const { hs } = await boot('weather');
    expect(hs.hello.capabilities).toContain('tool_cancel');
    const tools = hs.registrations.filter((f): f is ExtFrameOf<'register_tool'> => f.type === 'register_tool');
    expect(tools.map((t) => t.name)).toEqual(['weather', 'forecast', 'enable_weather_alerts', 'weather_alerts']);
    expect(tools.map((t) => t.deferred === true)).toEqual([false, false, false, true]);
    expect(tools[0]!.schema).toEqual({
      type: 'object',
      properties: { city: { type: 'string', description: 'City name, e.g. Berlin' } },
      required: ['city'],
    });
  });

  it('weather returns text and a valid PNG image, with details', async () => {
    const { d } = await boot('weather');
    const r = await tool(d, 'weather', { city: 'berlin' });
    expect(r.is_error).toBeUndefined();
    expect(r.content).toHaveLength(2);
    expect(r.content[0]!.type).toBe('text');
    expect(r.content[0]!.text).toMatch(/^Berlin: 16°C, fog, wind 12 km\/h, humidity 81%\nnext 7 days \(highs\): Day 1 -?\d+°C/);
    expect(r.content[1]).toMatchObject({ type: 'image', mime_type: 'image/png' });
    const size = checkPng(Buffer.from(r.content[1]!.data!, 'base64'));
    expect(size.width).toBeGreaterThan(0);
    expect(r.details).toEqual({ lastCity: 'Berlin', lookups: 1 });
    // Deterministic: the same city gives the same answer; details count lookups.
    const again = await tool(d, 'weather', { city: 'Berlin' });
    expect(again.content).toEqual(r.content);
    expect(again.details).toEqual({ lastCity: 'Berlin', lookups: 2 });
  });

  it('weather returns is_error for an unknown, empty or missing city', async () => {
    const { d } = await boot('weather');
    const unknown = await tool(d, 'weather', { city: 'Atlantis' });
    expect(unknown.is_error).toBe(true);
    expect(unknown.content[0]!.text).toMatch(/^unknown city "Atlantis"; known cities: Berlin, /);
    for (const args of [{ city: '' }, { city: '   ' }, {}, { city: 7 }]) {
      const r = await tool(d, 'weather', args);
      expect(r.is_error).toBe(true);
      expect(r.content[0]!.text).toBe('city is required (a non-empty string)');
    }
  });

  it('forecast answers after its days; bad days is an error', async () => {
    const { d } = await boot('weather');
    const r = await tool(d, 'forecast', { city: 'Paris', days: 2 });
    expect(r.content[0]!.text).toMatch(/^2-day forecast for Paris:\nDay 1: high -?\d+°C, low -?\d+°C\nDay 2: /);
    expect((await tool(d, 'forecast', { city: 'Paris', days: 9 })).is_error).toBe(true);
  });

  it('tool_cancel stops a running forecast: it never answers', async () => {
    const { d } = await boot('weather');
    const cancelled = nextId();
    d.send({ type: 'tool_call', id: cancelled, name: 'forecast', args: { city: 'Tokyo', days: 7 } });
    d.send({ type: 'tool_cancel', id: cancelled });
    const m = await d.waitForStderr(new RegExp(`forecast ${cancelled} cancelled after (\\d)/7 days`));
    expect(Number(m[1])).toBeLessThan(7);
    // A second, identical forecast started later finishes; had the first one kept going it would have answered first.
    const r = await tool(d, 'forecast', { city: 'Tokyo', days: 7 }, 10_000);
    expect(r.content[0]!.text!.split('\n')).toHaveLength(8);
    expect(d.frames.some((f) => f.type === 'tool_result' && f.id === cancelled)).toBe(false);
    d.send({ type: 'tool_cancel', id: 'no-such-call' }); // ignored
    expect((await tool(d, 'weather', { city: 'Cairo' })).is_error).toBeUndefined();
  });

  it('enable_weather_alerts activates the deferred weather_alerts tool', async () => {
    const { d } = await boot('weather');
    const r = await tool(d, 'enable_weather_alerts', {});
    expect(r.activate_tools).toEqual(['weather_alerts']);
    expect(r.content[0]!.text).toBe('Enabled the weather_alerts tool.');
    const alerts = await tool(d, 'weather_alerts', { city: 'London' });
    expect(alerts.content[0]!.text).toBe('London alerts:\nYellow wind warning until 18:00');
    expect((await tool(d, 'weather_alerts', { city: 'Berlin' })).content[0]!.text).toBe('Berlin: no active weather alerts');
  });
});

// ---------------------------------------------------------------------------------------------- guard

describe('example guard (node)', () => {
  const POLICY_PREFIX = 'Project policy (from guard): never run destructive shell commands';

  it('subscribes to five events, intercepts three, registers /guard', async () => {
    const { hs } = await boot('guard');
    const sub = hs.registrations.find((f) => f.type === 'subscribe');
    expect(sub).toEqual({
      type: 'subscribe',
      events: ['session_start', 'turn_start', 'tool_call', 'assistant_message', 'turn_end'],
      intercept: ['tool_call', 'turn_start', 'assistant_message'],
    });
    expect(names(hs.registrations, 'register_command')).toEqual(['guard']);
  });

  it('blocks a tool call with rm -rf in any string value, allows others', async () => {
    const { d } = await boot('guard');
    const reason = 'refused: matches danger pattern "rm -rf"';
    const blocked = await intercept(d, { event: 'tool_call', tool_id: 't1', tool_name: 'bash', tool_args: { command: 'rm -rf /tmp/foo', timeout: 30 } });
    expect(blocked).toMatchObject({ block: true, reason });
    const nested = await intercept(d, {
      event: 'tool_call',
      tool_name: 'edit',
      tool_args: { path: 'build.sh', edits: [{ old: 'x', new: 'cd out && rm -rf *' }] },
    });
    expect(nested).toMatchObject({ block: true, reason });
    const allowed = await intercept(d, { event: 'tool_call', tool_name: 'bash', tool_args: { command: 'ls -la', timeout: 30 } });
    expect(allowed).toEqual({ type: 'event_intercept_response', id: allowed.id });
    // Keys are not values: a key that looks dangerous does not block.
    const key = await intercept(d, { event: 'tool_call', tool_name: 'x', tool_args: { 'rm -rf': 'fine' } });
    expect(key.block).toBeUndefined();
  });

  it('redacts secrets in assistant messages, leaves clean ones alone', async () => {
    const { d } = await boot('guard');
    const r = await intercept(d, {
      event: 'assistant_message',
      text: 'use sk-ant-api03_abcDEF-123 and AKIAIOSFODNN7EXAMPLE, not sk-short',
    });
    expect(r.replace_text).toBe('use [redacted] and [redacted], not sk-short');
    expect(r.block).toBeUndefined();
    const clean = await intercept(d, { event: 'assistant_message', text: 'nothing secret here' });
    expect(clean).toEqual({ type: 'event_intercept_response', id: clean.id });
  });

  it('adds the project policy as context at turn_start', async () => {
    const { d } = await boot('guard');
    const r = await intercept(d, { event: 'turn_start', step: 1 });
    expect(r.context).toMatch(new RegExp(`^${POLICY_PREFIX.replace(/[()]/g, '\\$&')}`));
    expect(r.block).toBeUndefined();
  });

  it('observes events silently and reports its stats in /guard', async () => {
    const { d } = await boot('guard');
    d.send({ type: 'event', event: 'session_start' });
    d.send({ type: 'event', event: 'turn_start', step: 1 });
    d.send({ type: 'event', event: 'tool_call', tool_id: 't', tool_name: 'read', tool_args: { path: 'a' } });
    await intercept(d, { event: 'tool_call', tool_name: 'bash', tool_args: { command: 'sudo rm -rf /' } });
    await intercept(d, { event: 'assistant_message', text: 'AKIAIOSFODNN7EXAMPLE' });
    d.send({ type: 'event', event: 'turn_end', stop: 'end_turn' });
    const id = nextId();
    d.send({ type: 'command_invoked', id, name: 'guard', args: '' });
    // Events get no reply, so the very next frame is the command's response.
    const r = await d.nextFrame();
    expect(r).toMatchObject({ type: 'command_response', id, action: 'display' });
    expect((r as ExtFrameOf<'command_response'>).display).toBe(
      'guard: 1 blocked tool call(s), 1 redaction(s)\n' +
        'checked 1 tool call(s), saw 1 turn(s) and 4 event(s)\n' +
        'danger patterns: rm -rf, rm -fr, mkfs, git push --force, dd if=/dev/zero',
    );
  });
});

// ---------------------------------------------------------------------------------------------- briefing

describe('example briefing (node)', () => {
  it('bundles the weather-briefing skill: frontmatter named like its folder, a template it refers to', () => {
    const dir = join(EXAMPLES_DIR, 'briefing');
    expect(readManifest(dir).skills).toEqual(['skills']);
    const skill = readFileSync(join(dir, 'skills', 'weather-briefing', 'SKILL.md'), 'utf8');
    expect(skill).toMatch(/^---\nname: weather-briefing\ndescription: Write a short travel weather briefing .+\n---\n/);
    expect(skill).toContain('[template.md](template.md)');
    expect(existsSync(join(dir, 'skills', 'weather-briefing', 'template.md'))).toBe(true);
  });

  it('subscribes to tool_confirmation_requested and registers /approvals', async () => {
    const { hs } = await boot('briefing');
    expect(hs.registrations.find((f) => f.type === 'subscribe')).toMatchObject({ type: 'subscribe', events: ['tool_confirmation_requested'], intercept: [] });
    expect(names(hs.registrations, 'register_command')).toEqual(['approvals']);
  });

  it('a tool_confirmation_requested event is a note naming the tool and its preview; /approvals counts them', async () => {
    const { d } = await boot('briefing');
    expect((await command(d, 'approvals')).display).toBe('briefing: no tool call has waited for your approval yet');
    d.send({ type: 'event', event: 'tool_confirmation_requested', tool_id: 't1', tool_name: 'bash', tool_preview: 'rm -r build' });
    expect(await d.nextFrame()).toEqual({ type: 'notify', level: 'info', message: 'approval needed: bash: rm -r build' });
    d.send({ type: 'event', event: 'tool_confirmation_requested', tool_id: 't2', tool_name: 'write' });
    expect(await d.nextFrame()).toEqual({ type: 'notify', level: 'info', message: 'approval needed: write' });
    d.send({ type: 'event', event: 'turn_start', step: 1 });
    // Other events get nothing: the very next frame is the command's response.
    expect((await command(d, 'approvals')).display).toBe('briefing: 2 tool call(s) waited for your approval\nlast: write');
    expect(await command(d, 'nope')).toMatchObject({ action: 'noop', error: 'briefing: unknown command /nope' });
  });
});

// ---------------------------------------------------------------------------------------------- todo

const TODO_FOOTER = '↑/↓ move · x/enter toggle · d delete · a add · esc close';

describe('example todo (node)', () => {
  /** Boots todo with its data_dir in a fresh (not yet existing) directory of the temp copy. */
  async function bootTodo(dataDir?: string) {
    let dir = '';
    const r = await boot('todo', (d) => {
      dir = dataDir ?? join(d.dir, 'data');
      return helloAck(d, { data_dir: dir });
    });
    return { ...r, dataDir: dir, file: join(dir, 'todos.json') };
  }
  const key = (d: StdioDriver, k: string, text?: string): void =>
    d.send({ type: 'panel_key', panel_id: 'todo-main', key: k, ...(text === undefined ? {} : { text }) });
  const typeText = (d: StdioDriver, s: string): void => {
    for (const ch of s) key(d, 'rune', ch);
  };

  it('ships without a todos.json and ignores it in git', () => {
    expect(existsSync(join(EXAMPLES_DIR, 'todo', '.gitignore'))).toBe(true);
    expect(readFileSync(join(EXAMPLES_DIR, 'todo', '.gitignore'), 'utf8')).toMatch(/^todos\.json$/m);
    const tracked = execFileSync('git', ['ls-files', 'examples/workspace/.zut/extensions/todo'], { encoding: 'utf8' });
    expect(tracked).not.toContain('todos.json');
  });

  it('registers commands and the todo_list tool, advertises panels', async () => {
    const { hs } = await bootTodo();
    expect(hs.hello.capabilities).toContain('panels');
    expect(names(hs.registrations, 'register_command')).toEqual(['todo', 'todo-pop', 'todo-add']);
    expect(names(hs.registrations, 'register_tool')).toEqual(['todo_list']);
  });

  it('/todo opens the panel; down + x renders the toggled item and persists it', async () => {
    const { d, file } = await bootTodo();
    const open = await command(d, 'todo');
    expect(open.action).toBe('open_panel');
    expect(open.open_panel).toEqual({
      id: 'todo-main',
      title: 'Todos (1/3 done)',
      lines: ['▸ ✓ Read the zut extension spec', '  □ Try the todo panel keys', '  □ Ship the VS Code host'],
      footer: TODO_FOOTER,
    });
    expect(existsSync(file)).toBe(false); // nothing written until something changes

    key(d, 'down');
    expect((await d.next('panel_render')).lines).toEqual([
      '  ✓ Read the zut extension spec',
      '▸ □ Try the todo panel keys',
      '  □ Ship the VS Code host',
    ]);
    key(d, 'rune', 'x');
    expect(await d.next('panel_render')).toEqual({
      type: 'panel_render',
      panel_id: 'todo-main',
      title: 'Todos (2/3 done)',
      lines: ['  ✓ Read the zut extension spec', '▸ ✓ Try the todo panel keys', '  □ Ship the VS Code host'],
      footer: TODO_FOOTER,
    });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      todos: [
        { text: 'Read the zut extension spec', done: true },
        { text: 'Try the todo panel keys', done: true },
        { text: 'Ship the VS Code host', done: false },
      ],
    });
    key(d, 'enter'); // enter toggles too
    expect((await d.next('panel_render')).title).toBe('Todos (1/3 done)');
  });

  it('add mode: runes and backspace edit a draft, enter saves, esc cancels', async () => {
    const { d, file } = await bootTodo();
    await command(d, 'todo');
    key(d, 'rune', 'a');
    expect((await d.next('panel_render')).lines!.at(-1)).toBe('▸ + _');
    typeText(d, 'buy milkk');
    for (let i = 0; i < 9; i++) await d.next('panel_render');
    key(d, 'backspace');
    const draft = await d.next('panel_render');
    expect(draft.lines!.at(-1)).toBe('▸ + buy milk_');
    expect(draft.footer).toBe('type the todo · enter save · backspace erase · esc cancel');
    key(d, 'enter');
    const saved = await d.next('panel_render');
    expect(saved.title).toBe('Todos (1/4 done)');
    expect(saved.lines!.at(-1)).toBe('▸ □ buy milk');
    expect(saved.footer).toBe(TODO_FOOTER);
    expect(JSON.parse(readFileSync(file, 'utf8')).todos.at(-1)).toEqual({ text: 'buy milk', done: false });

    key(d, 'rune', 'a');
    typeText(d, 'nope');
    key(d, 'esc');
    for (let i = 0; i < 5; i++) await d.next('panel_render');
    const cancelled = await d.next('panel_render');
    expect(cancelled.lines).toHaveLength(4);
    expect(cancelled.lines!.join('\n')).not.toContain('nope');
  });

  it('d deletes the selected item; esc closes the panel from the extension side', async () => {
    const { d, file } = await bootTodo();
    await command(d, 'todo');
    key(d, 'rune', 'd');
    const r = await d.next('panel_render');
    expect(r.title).toBe('Todos (0/2 done)');
    expect(r.lines).toEqual(['▸ □ Try the todo panel keys', '  □ Ship the VS Code host']);
    key(d, 'delete');
    key(d, 'delete');
    await d.next('panel_render');
    expect((await d.next('panel_render')).lines).toEqual(['  (no todos: press a to add one)']);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ todos: [] });
    key(d, 'esc');
    expect(await d.next('panel_close')).toEqual({ type: 'panel_close', panel_id: 'todo-main' });
  });

  it('panel_close from the host ends rendering', async () => {
    const { d } = await bootTodo();
    await command(d, 'todo');
    d.send({ type: 'panel_close', panel_id: 'todo-main' });
    key(d, 'down');
    const id = nextId();
    d.send({ type: 'tool_call', id, name: 'todo_list', args: {} });
    // Frames are handled in order: had the key produced a render, it would come before the tool result.
    expect(await d.nextFrame()).toMatchObject({ type: 'tool_result', id });
  });

  it('state survives a restart on the same data_dir', async () => {
    const first = await bootTodo();
    await command(first.d, 'todo-add', 'water plants');
    first.d.send({ type: 'shutdown' });
    await first.d.next('shutdown_ack');
    await first.d.waitExit();

    const second = await bootTodo(first.dataDir);
    const r = await tool(second.d, 'todo_list', {});
    expect(r.content[0]!.text).toBe(
      '1/4 done\n1. [x] Read the zut extension spec\n2. [ ] Try the todo panel keys\n3. [ ] Ship the VS Code host\n4. [ ] water plants',
    );
  });

  it('tolerates a corrupt todos.json (starts from the sample list)', async () => {
    const dataDir = tempDir('zut-todo-corrupt-');
    writeFileSync(join(dataDir, 'todos.json'), '{"todos": [oops');
    const { d } = await bootTodo(dataDir);
    expect((await command(d, 'todo')).open_panel!.title).toBe('Todos (1/3 done)');
    await d.waitForStderr(/ignoring corrupt/);
  });

  it('/todo-pop sends a spontaneous open_panel, then answers noop', async () => {
    const { d } = await bootTodo();
    const id = nextId();
    d.send({ type: 'command_invoked', id, name: 'todo-pop', args: '' });
    const [open, resp] = await d.take(2);
    expect(open).toMatchObject({ type: 'open_panel', panel: { id: 'todo-main', title: 'Todos (1/3 done)', footer: TODO_FOOTER } });
    expect(resp).toEqual({ type: 'command_response', id, action: 'noop' });
    key(d, 'down'); // the spontaneous panel is live too
    expect((await d.next('panel_render')).lines![1]).toBe('▸ □ Try the todo panel keys');
  });

  it('todo_list lists the items; /todo-add without text is an error', async () => {
    const { d } = await bootTodo();
    expect((await tool(d, 'todo_list', {})).content[0]!.text).toBe(
      '1/3 done\n1. [x] Read the zut extension spec\n2. [ ] Try the todo panel keys\n3. [ ] Ship the VS Code host',
    );
    expect(await command(d, 'todo-add', '')).toMatchObject({ action: 'noop', error: 'usage: /todo-add <text>' });
    expect(await command(d, 'todo-add', 'x')).toMatchObject({ action: 'display', display: 'added "x" (4 todos)' });
  });

  it('creates a missing data_dir', async () => {
    const { d, dataDir, file } = await bootTodo();
    expect(existsSync(dataDir)).toBe(true);
    await command(d, 'todo-add', 'first');
    expect(existsSync(file)).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------- progress

describe('example progress (python)', () => {
  const W = { type: 'widget', id: 'progress', position: 'above_input', title: 'Progress' } as const;

  it('registers its commands', async () => {
    const { hs } = await boot('progress');
    expect(names(hs.registrations, 'register_command')).toEqual([
      'progress-demo', 'progress-log', 'status-set', 'status-clear', 'notify', 'widget', 'widget-clear', 'clear-notes', 'bell', 'submit', 'slash',
    ]);
  });

  it('/progress-log opens a panel of the frames it sent; new frames, keys and c re-render it; panel_close stops it', async () => {
    const { d } = await boot('progress');
    expect(await command(d, 'status-set', 'build info compiling')).toEqual(expect.objectContaining({ action: 'noop' }));
    const open = await command(d, 'progress-log');
    expect(open).toMatchObject({ action: 'open_panel', open_panel: { id: 'progress-log', title: 'Progress log (1 frames)', footer: '↑/↓ move · c clear · esc close' } });
    const lines = (open as { open_panel: { lines: string[] } }).open_panel.lines;
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^▸ \d\d:\d\d:\d\d status build compiling$/);
    d.send({ type: 'command_invoked', id: nextId(), name: 'notify', args: 'warn disk almost full' });
    const render = await d.next('panel_render');
    expect(render).toMatchObject({ panel_id: 'progress-log', title: 'Progress log (2 frames)' });
    expect((render as { lines: string[] }).lines[0]).toMatch(/^▸ .* notify warn disk almost full$/);
    d.send({ type: 'panel_key', panel_id: 'progress-log', key: 'down' });
    expect((await d.next('panel_render') as { lines: string[] }).lines[1]).toMatch(/^▸ .* status build/);
    d.send({ type: 'panel_key', panel_id: 'progress-log', key: 'rune', text: 'c' });
    expect(await d.next('panel_render')).toMatchObject({ title: 'Progress log (0 frames)', lines: ['▸ (no frames yet: try /progress-demo)'] });
    d.send({ type: 'panel_close', panel_id: 'progress-log' });
    expect(await command(d, 'status-clear', 'build')).toEqual(expect.objectContaining({ action: 'noop' }));
    expect(d.pending.map((f) => f.type)).toContain('status');
    expect(d.pending.filter((f) => f.type === 'panel_render')).toEqual([]);
  });

  it('/progress-demo answers noop, then plays a fixed sequence ending with everything cleared', async () => {
    const { d } = await boot('progress');
    const id = nextId();
    d.send({ type: 'command_invoked', id, name: 'progress-demo', args: '' });
    expect(await d.nextFrame()).toEqual({ type: 'command_response', id, action: 'noop' });
    // A second run while the first plays is refused.
    expect(await command(d, 'progress-demo')).toMatchObject({ action: 'noop', error: 'the progress demo is already running' });
    const expected = [
      { type: 'status', key: 'build', level: 'info', text: 'build: compiling' },
      { ...W, lines: ['Indexing files', '0/20 complete'] },
      { type: 'notify', level: 'info', message: 'Indexing 20 files' },
      { type: 'status', key: 'build', level: 'warning', text: 'build: 2 warnings' },
      { ...W, lines: ['Indexing files', '12/20 complete'] },
      { type: 'notify', level: 'warn', message: '2 deprecation warnings' },
      { type: 'status', key: 'tests', level: 'error', text: 'tests: 1 failed' },
      { ...W, lines: ['Running tests', '20/20 complete'] },
      { type: 'notify', level: 'error', message: '1 test failed, retrying' },
      { type: 'status', key: 'tests', level: 'success', text: 'tests: 42 passed' },
      { type: 'status', key: 'build', level: 'success', text: 'build: ok' },
      { ...W, lines: ['Done', '20/20 complete'] },
      { type: 'notify', level: 'success', message: 'All checks passed' },
      { type: 'clear_notes' },
      { type: 'alert', kind: 'bell', reason: 'done' },
      { type: 'status', key: 'build', text: '' },
      { type: 'status', key: 'tests', text: '' },
      { type: 'widget_clear', id: 'progress' },
    ];
    expect(await d.take(expected.length)).toEqual(expected);
    await d.waitForStderr(/demo finished/);
    expect(d.pending).toEqual([]);
  });

  it('shutdown during the demo: shutdown_ack is the last frame', async () => {
    const { d } = await boot('progress');
    await command(d, 'progress-demo');
    await d.next('notify'); // the demo is playing
    d.send({ type: 'shutdown' });
    await d.next('shutdown_ack');
    expect(await d.waitExit()).toEqual({ code: 0, signal: null });
    expect(d.frames.at(-1)).toEqual({ type: 'shutdown_ack' });
  });

  /** Runs a command and returns the frames it produced before its response (which must be noop). */
  async function effects(d: StdioDriver, name: string, args: string): Promise<ExtFrame[]> {
    const id = nextId();
    d.send({ type: 'command_invoked', id, name, args });
    const out: ExtFrame[] = [];
    for (;;) {
      const f = await d.nextFrame();
      if (f.type === 'command_response' && f.id === id) {
        expect(f).toEqual({ type: 'command_response', id, action: 'noop' });
        return out;
      }
      out.push(f);
    }
  }

  it('each test command writes its frame before answering noop', async () => {
    const { d } = await boot('progress');
    expect(await effects(d, 'status-set', 'lint warning 3 problems')).toEqual([
      { type: 'status', key: 'lint', level: 'warning', text: '3 problems' },
    ]);
    expect(await effects(d, 'status-clear', 'lint')).toEqual([{ type: 'status', key: 'lint', text: '' }]);
    expect(await effects(d, 'notify', 'success all good')).toEqual([{ type: 'notify', level: 'success', message: 'all good' }]);
    expect(await effects(d, 'widget', 'plan Plan | step one | step two')).toEqual([
      { type: 'widget', id: 'plan', position: 'above_input', title: 'Plan', lines: ['step one', 'step two'] },
    ]);
    expect(await effects(d, 'widget-clear', 'plan')).toEqual([{ type: 'widget_clear', id: 'plan' }]);
    expect(await effects(d, 'clear-notes', '')).toEqual([{ type: 'clear_notes' }]);
    expect(await effects(d, 'bell', '')).toEqual([{ type: 'alert', kind: 'bell', reason: 'bell command' }]);
    expect(await effects(d, 'submit', 'Summarize the workspace.')).toEqual([{ type: 'submit', text: 'Summarize the workspace.' }]);
    expect(await effects(d, 'slash', '/wordcount a b')).toEqual([{ type: 'submit_slash', text: '/wordcount a b' }]);
  });

  it('bad input answers noop with a usage error and sends nothing else', async () => {
    const { d } = await boot('progress');
    const cases: [string, string, string][] = [
      ['status-set', 'onlykey', 'usage: /status-set <key> <level> <text>'],
      ['status-clear', '', 'usage: /status-clear <key>'],
      ['notify', 'loud hello', 'usage: /notify <info|success|warn|error> <message>'],
      ['widget', 'lonely', 'usage: /widget <id> <title>|<line1>|<line2>...'],
      ['widget-clear', '', 'usage: /widget-clear <id>'],
      ['submit', '', 'usage: /submit <text>'],
      ['slash', 'no-slash', 'usage: /slash </command args>'],
    ];
    for (const [name, args, error] of cases) {
      const id = nextId();
      d.send({ type: 'command_invoked', id, name, args });
      expect(await d.nextFrame()).toEqual({ type: 'command_response', id, action: 'noop', error });
    }
  });
});

// ---------------------------------------------------------------------------------------------- shell

describe('example shell (sh)', () => {
  it('registers /uptime and /git-branch', async () => {
    const { hs } = await boot('shell');
    expect(names(hs.registrations, 'register_command')).toEqual(['uptime', 'git-branch']);
  });

  it('/uptime displays the uptime', async () => {
    const { d } = await boot('shell');
    const r = await command(d, 'uptime');
    expect(r.action).toBe('display');
    expect(r.display).toMatch(/^uptime: \S/);
    expect(r.display).not.toContain('\n');
  });

  it('/git-branch reports the branch of hello_ack.cwd, or that it is not a repository', async () => {
    const repo = tempDir('zut-shell-repo "q" \\ ');
    const plain = tempDir('zut-shell-plain-');
    execFileSync('git', ['init', '-q', '-b', 'zut-test-branch', repo]);
    const a = await boot('shell', (d) => helloAck(d, { cwd: repo }));
    expect(await command(a.d, 'git-branch')).toMatchObject({ action: 'display', display: 'branch: zut-test-branch' });
    const b = await boot('shell', (d) => helloAck(d, { cwd: plain }));
    expect(await command(b.d, 'git-branch')).toMatchObject({ action: 'display', display: `not a git repository: ${plain}` });
    const c = await boot('shell', (d) => helloAck(d, { cwd: join(repo, 'missing') }));
    expect((await command(c.d, 'git-branch')).display).toBe(`not a git repository: ${join(repo, 'missing')}`);
  });

  it('echoes ids with JSON escapes intact and refuses unknown commands', async () => {
    const { d } = await boot('shell');
    const id = 'id "quoted" \\ slash/';
    d.send({ type: 'command_invoked', id, name: 'uptime', args: '"type":"shutdown"' });
    expect(await d.next('command_response')).toMatchObject({ id, action: 'display' });
    expect(await command(d, 'nope')).toMatchObject({ action: 'noop', error: 'shell: unknown command' });
    expect(d.exit).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------- sdk-demo

describe('example sdk-demo (the TypeScript SDK)', () => {
  it('registers its commands and tools (the SDK adds capabilities and the default schema)', async () => {
    const { hs } = await boot('sdk-demo');
    expect(hs.hello.capabilities).toEqual(['commands', 'tools', 'tool_cancel', 'panels']);
    expect(names(hs.registrations, 'register_command')).toEqual(['sdk-hello', 'sdk-count']);
    expect(names(hs.registrations, 'register_tool')).toEqual(['sdk_approve', 'sdk_wait', 'sdk_tally']);
    expect(hs.registrations.find((f) => f.type === 'register_tool' && f.name === 'sdk_approve')).toMatchObject({ interactive: true });
  });

  it('/sdk-hello displays; without a name it answers noop + error', async () => {
    const { d } = await boot('sdk-demo');
    expect(await command(d, 'sdk-hello', 'Ada')).toMatchObject({ action: 'display', display: 'Hello, Ada! (from the zut SDK)' });
    expect(await command(d, 'sdk-hello')).toMatchObject({ action: 'noop', error: 'usage: /sdk-hello NAME' });
  });

  it('sdk_approve asks in a panel: n denies (is_error), the panel closes', async () => {
    const { d } = await boot('sdk-demo');
    const id = nextId();
    d.send({ type: 'tool_call', id, name: 'sdk_approve', args: { action: 'rm' } });
    const open = await d.next('open_panel');
    expect(open.panel).toMatchObject({ title: 'Approve?', lines: ['Allow rm?'], footer: 'y yes - n no' });
    d.send({ type: 'panel_key', panel_id: open.panel.id, key: 'rune', text: 'n' });
    expect(await d.next('panel_close')).toMatchObject({ panel_id: open.panel.id });
    expect(await d.next('tool_result', 5000, (f) => f.id === id)).toMatchObject({ is_error: true, content: [{ type: 'text', text: 'denied: rm' }] });
  });

  it('sdk_wait: tool_cancel aborts it and no result is sent', async () => {
    const { d } = await boot('sdk-demo');
    const id = nextId();
    d.send({ type: 'tool_call', id, name: 'sdk_wait', args: { ms: 60_000 } });
    d.send({ type: 'tool_cancel', id });
    expect(await tool(d, 'sdk_tally', {})).toMatchObject({ content: [{ type: 'text', text: 'tally: 1' }], details: { count: 1 } });
    expect(d.frames.filter((f) => f.type === 'tool_result' && f.id === id)).toEqual([]);
  });
});
