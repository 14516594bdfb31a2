import { describe, expect, it } from 'vitest';
import { commandIdFor, commandPickItems, diffCommandIds, emptyCommandPick, parseSlash, planResponse, promptQuery, responseErrorMessage } from '../../src/ui-model/commandModel';
import { argsPlaceholder, checkToolArgs, fence, toolPickItems, toolResultMarkdown } from '../../src/ui-model/toolArgs';
import { extensionChildren, extensionContextValue, extensionItem, extensionsSummary, groupChildren, sortExtensions } from '../../src/ui-model/extensionsModel';
import { doctorMarkdown } from '../../src/host/disk/doctor';
import type { CommandInfo, ExtensionInfo, ToolInfo } from '../../src/host/types';
import { extensionInfo } from '../helpers/extensionInfo';

const cmd = (name: string, ext: string, active = true, description?: string): CommandInfo => ({ name, ext, active, description });
const tool = (name: string, over: Partial<ToolInfo> = {}): ToolInfo => ({
  name,
  ext: 'weather',
  schema: { type: 'object' },
  active: true,
  deferred: false,
  activated: false,
  interactive: false,
  ...over,
});
const info = (over: Partial<ExtensionInfo> = {}): ExtensionInfo =>
  extensionInfo({
    name: 'snippets',
    dir: '/w/.zut/extensions/snippets',
    manifestPath: '/w/.zut/extensions/snippets/extension.json',
    logPath: '/zh/logs/ext-snippets.log',
    capabilities: ['commands'],
    ...over,
  });

describe('command quick pick', () => {
  it('lists active commands sorted, with the extension as detail', () => {
    const items = commandPickItems([cmd('zeta', 'a', true, 'last'), cmd('Alpha', 'b'), cmd('beta', 'c', false)]);
    expect(items).toEqual([
      { label: '/Alpha', description: '', detail: 'b', name: 'Alpha' },
      { label: '/zeta', description: 'last', detail: 'a', name: 'zeta' },
    ]);
  });

  it('issue 32, rough edge 7: with no command yet it says why and leads on (Restricted Mode: Manage Workspace Trust…)', () => {
    const restricted = emptyCommandPick([{ state: 'blocked' }, { state: 'blocked' }, { state: 'running' }]);
    expect(restricted.placeholder).toBe('No zut commands: this workspace is in Restricted Mode, and its 2 project extensions start once you trust it');
    expect(restricted.items).toMatchObject([{ label: '$(workspace-untrusted) Manage Workspace Trust…', action: 'zut.manageTrust' }]);
    expect(emptyCommandPick([{ state: 'consent' }])).toMatchObject({ placeholder: 'No zut commands yet: 1 project extension waits for you to allow it', items: [{ action: 'zut.extensions.focus' }] });
    expect(emptyCommandPick([{ state: 'starting' }])).toEqual({ placeholder: 'Waiting for zut extensions to start…', items: [], busy: true });
    expect(emptyCommandPick([])).toEqual({ placeholder: 'No zut commands are available (see the Zut Extensions view)', items: [], busy: false });
  });

  it('parses /name args', () => {
    expect(parseSlash('/todo add milk ')).toEqual({ name: 'todo', args: 'add milk' });
    expect(parseSlash('  /x')).toEqual({ name: 'x', args: '' });
    expect(parseSlash('/x\nline two')).toEqual({ name: 'x', args: 'line two' });
    expect(parseSlash('todo')).toBeUndefined();
    expect(parseSlash('/')).toBeUndefined();
    // The same rule in chat (`@zut …`) and for `submit_slash`: a path is not a command.
    expect(parseSlash('/Explain  the moon ')).toEqual({ name: 'Explain', args: 'the moon' });
    expect(parseSlash('what is /etc?')).toBeUndefined();
    expect(parseSlash('/ nothing')).toBeUndefined();
    expect(parseSlash('/etc/hosts explain')).toBeUndefined();
  });

  it('takes a declared chat command (request.command) with the whole prompt as its arguments', () => {
    expect(parseSlash('  extra args ', 'help')).toEqual({ name: 'help', args: 'extra args' });
    expect(parseSlash('/x y', 'reload')).toEqual({ name: 'reload', args: '/x y' });
  });

  it('diffs the per-command VS Code ids', () => {
    const d = diffCommandIds(new Set(['old', 'keep']), [cmd('keep', 'a'), cmd('new', 'b'), cmd('lost', 'c', false)]);
    expect(d).toEqual({ add: ['new'], remove: ['old'] });
    expect(commandIdFor('hi')).toBe('zut.command.hi');
  });
});

describe('planResponse', () => {
  it('maps each action', () => {
    expect(planResponse({ action: 'prompt', prompt: 'p' })).toEqual({ action: { kind: 'prompt', prompt: 'p' } });
    expect(planResponse({ action: 'insert', insert: 'i' })).toEqual({ action: { kind: 'insert', text: 'i' } });
    expect(planResponse({ action: 'display', display: 'd' })).toEqual({ action: { kind: 'display', text: 'd' } });
    const panel = { id: 'p1', title: 'T', lines: ['a'] };
    expect(planResponse({ action: 'open_panel', open_panel: panel })).toEqual({ action: { kind: 'open_panel', panel } });
    expect(planResponse({ action: 'noop' })).toEqual({ action: { kind: 'none' } });
  });

  it('does nothing for empty payloads and unknown actions, with a reason', () => {
    expect(planResponse({ action: 'prompt', prompt: '' }).action).toEqual({ kind: 'none', reason: 'empty prompt' });
    expect(planResponse({ action: 'prompt', prompt: ' \n ' }).action).toEqual({ kind: 'none', reason: 'empty prompt' });
    expect(planResponse({ action: 'open_panel' }).action.kind).toBe('none');
    expect(planResponse({ action: 'dance' }).action).toEqual({ kind: 'none', reason: 'unknown action "dance"' });
  });

  it('keeps a non-empty error whatever the action', () => {
    expect(planResponse({ action: 'display', display: 'd', error: 'boom' })).toEqual({ action: { kind: 'display', text: 'd' }, error: 'boom' });
    expect(planResponse({ action: '', error: 'bad args' })).toEqual({ action: { kind: 'none', reason: undefined }, error: 'bad args' });
    expect(planResponse({ action: 'noop', error: '' })).toEqual({ action: { kind: 'none' } });
    expect(responseErrorMessage('snippets', 'fail', 'bad')).toBe('snippets /fail: bad');
    expect(promptQuery('hi')).toBe('@zut hi');
  });
});

describe('tool arguments', () => {
  const schema = { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] };
  it('accepts a matching object, and empty input as {}', () => {
    expect(checkToolArgs('{"city":"Berlin","days":2}', schema)).toEqual({ ok: true, value: { city: 'Berlin', days: 2 } });
    expect(checkToolArgs('  ', { type: 'object' })).toEqual({ ok: true, value: {} });
  });
  it('rejects bad JSON, non-objects, missing required and wrong types', () => {
    const bad = (t: string) => {
      const r = checkToolArgs(t, schema);
      expect(r.ok).toBe(false);
      return r.ok ? '' : r.message;
    };
    expect(bad('{city:')).toMatch(/^Not valid JSON/);
    expect(bad('[1]')).toMatch(/must be a JSON object/);
    expect(bad('"x"')).toMatch(/must be a JSON object/);
    expect(bad('{}')).toBe('Missing required "city"');
    expect(bad('{"city":1}')).toBe('"city" must be of type string');
    expect(bad('{"city":"b","days":1.5}')).toBe('"days" must be of type integer');
  });
  it('builds a placeholder from required properties', () => {
    expect(argsPlaceholder(schema)).toBe('{"city":""}');
    expect(argsPlaceholder({ type: 'object' })).toBe('{}');
  });
  it('lists active tools with flags', () => {
    expect(toolPickItems([tool('b', { deferred: true }), tool('a', { interactive: true, description: 'A' }), tool('c', { active: false })])).toEqual([
      { label: 'a', description: 'A', detail: 'weather (interactive)', name: 'a' },
      { label: 'b', description: '', detail: 'weather (deferred)', name: 'b' },
    ]);
  });
  it('renders results as markdown with extension text fenced', () => {
    const md = toolResultMarkdown('weather', { city: 'B' }, {
      ext: 'weather',
      isError: false,
      content: [{ type: 'text', text: '[link](command:x) ```' }, { type: 'image', mime_type: 'image/png', data: 'AAAA' }],
    });
    expect(md).toContain('# Tool weather (weather)');
    expect(md).toContain('````\n[link](command:x) ```\n````');
    expect(md).toContain('- image image/png, ~3 bytes');
    expect(fence('a')).toBe('```\na\n```');
  });
});

describe('extensions tree model', () => {
  it('describes a running project extension', () => {
    const item = extensionItem(info({ version: '1.2.0', description: 'Snippets' }));
    expect(item.label).toBe('snippets');
    expect(item.description).toBe('running · project 1.2.0');
    expect(item.icon?.id).toBe('pass-filled');
    expect(item.contextValue).toBe('zutExt.running.enabled.project.restartable');
    expect(item.tooltip).toContain('Directory: /w/.zut/extensions/snippets');
    expect(item.tooltip).toContain('Snippets');
  });

  it('uses a context value per state for the menus', () => {
    expect(extensionContextValue(info({ state: 'disabled', scope: 'global' }))).toBe('zutExt.disabled.disabled.global');
    expect(extensionContextValue(info({ state: 'blocked' }))).toBe('zutExt.blocked.enabled.project');
    expect(extensionContextValue(info({ state: 'crashed', scope: 'explicit' }))).toBe('zutExt.crashed.enabled.explicit.restartable');
  });

  it('shows blocked extensions with a trust action and errors in the tooltip', () => {
    const blocked = info({ state: 'blocked', error: 'line1\nline2' });
    expect(extensionItem(blocked).description).toMatch(/^blocked by Workspace Trust/);
    expect(extensionItem(blocked).tooltip).toContain('Error: line1\nline2');
    const kids = extensionChildren(blocked);
    expect(kids[0].command?.id).toBe('workbench.trust.manage');
    expect(kids[1].label).toBe('line1');
    expect(kids.at(-1)?.command).toEqual({ id: 'zut.showLog', title: 'Show Log', args: ['snippets'] });
  });

  it('groups commands, tools and diagnostics', () => {
    const i = info({
      commands: [cmd('snip', 'snippets', true, 'insert'), cmd('other', 'snippets', false)],
      tools: [tool('lookup', { deferred: true })],
      diagnostics: ['skill path escapes'],
    });
    expect(extensionChildren(i).map((c) => c.label)).toEqual(['Commands', 'Tools', 'Diagnostics', 'Log']);
    const cmds = groupChildren(i, 'commands');
    expect(cmds.map((c) => c.label)).toEqual(['/snip', '/other']);
    expect(cmds[0].command).toEqual({ id: 'zut.runCommand', title: 'Run Command', args: ['snip'] });
    expect(cmds[1].command).toBeUndefined();
    expect(cmds[1].description).toBe('shadowed');
    expect(groupChildren(i, 'tools')[0].description).toBe('deferred');
    expect(groupChildren(i, 'diagnostics')[0].label).toBe('skill path escapes');
  });

  it('marks the tools offered to agent mode, with their model-facing name in the tooltip', () => {
    const i = info({ tools: [tool('lookup'), tool('my tool!')] });
    const rows = groupChildren(i, 'tools', (t) => (t.name === 'my tool!' ? 'my_tool_0a1b2c3d' : undefined));
    expect(rows[0].description).toBe('');
    expect(rows[0].tooltip).toContain('Not offered to agent mode now');
    expect(rows[1].description).toBe('agent mode');
    expect(rows[1].tooltip).toContain('Offered to agent mode as my_tool_0a1b2c3d.');
  });

  it('sorts by name then scope', () => {
    const sorted = sortExtensions([info({ name: 'b' }), info({ name: 'a', scope: 'global' }), info({ name: 'a', scope: 'project' })]);
    expect(sorted.map((s) => `${s.name}:${s.scope}`)).toEqual(['a:project', 'a:global', 'b:project']);
  });
});

describe('issue 32, rough edge 13: the doctor report starts with a summary line', () => {
  it('counts each state in words, most first, and the load errors', () => {
    const states = ['running', 'running', 'consent', 'disabled', 'running'] as const;
    expect(extensionsSummary(states.map((state) => ({ state })), 0)).toBe('5 zut extensions: 3 running, 1 disabled, 1 waiting for consent. No load errors.');
    expect(extensionsSummary([{ state: 'blocked' }], 2)).toBe('1 zut extension: 1 blocked by Workspace Trust. 2 load errors (below).');
    expect(extensionsSummary([], 0)).toBe('No zut extensions. No load errors.');
    expect(doctorMarkdown({ extensions: [], errors: [] }, 'No zut extensions. No load errors.')).toMatch(/^# Zut doctor report\n\n\*\*No zut extensions\. No load errors\.\*\*\n/);
  });
});
