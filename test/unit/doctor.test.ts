import { describe, expect, it } from 'vitest';
import {
  buildDoctorReport,
  doctorHasErrors,
  doctorJson,
  doctorMarkdown,
  doctorStatus,
  doctorText,
  mdCode,
  mdCodeBlock,
} from '../../src/host/disk/doctor';
import { sanitizeText } from '../../src/host/terminalText';
import type { ExtensionInfo } from '../../src/host/types';
import { extensionInfo } from '../helpers/extensionInfo';

const info = (over: Partial<ExtensionInfo>): ExtensionInfo => extensionInfo({ readyMode: 'ready', ...over });

const tool = (name: string, active = true) => ({
  name,
  schema: { type: 'object' },
  ext: 'x',
  active,
  deferred: false,
  activated: false,
  interactive: false,
});

describe('doctorStatus', () => {
  it('derives the status from state, ready mode, diagnostics and conflicts', () => {
    expect(doctorStatus(info({}))).toBe('ok');
    expect(doctorStatus(info({ readyMode: 'auto-ready' }))).toBe('auto-ready');
    expect(doctorStatus(info({ readyMode: 'ready-timeout', diagnostics: ['w'] }))).toBe('ready-timeout');
    expect(doctorStatus(info({ diagnostics: ['skills: "../x": path escapes the extension directory'] }))).toBe('warning');
    expect(doctorStatus(info({ commands: [{ name: 'c', ext: 'x', active: false }] }))).toBe('warning');
    expect(doctorStatus(info({ tools: [tool('read', false)] }))).toBe('warning');
    expect(doctorStatus(info({ state: 'error', error: 'boom' }))).toBe('error');
    expect(doctorStatus(info({ state: 'crashed' }))).toBe('error');
    expect(doctorStatus(info({ state: 'shadowed', shadowedBy: '/a' }))).toBe('shadowed');
    expect(doctorStatus(info({ state: 'disabled' }))).toBe('disabled');
    expect(doctorStatus(info({ state: 'theme-only' }))).toBe('theme-only');
    expect(doctorStatus(info({ state: 'blocked' }))).toBe('warning');
  });
});

describe('buildDoctorReport', () => {
  it('keeps name, scope, dir, version, status, registrations, diagnostics, log and error; flags errors', () => {
    const r = buildDoctorReport(
      [
        info({
          version: '1.0.0',
          commands: [{ name: 'hello', description: 'say hi', ext: 'x', active: true }],
          tools: [{ ...tool('weather'), description: 'Weather', deferred: true }],
          skills: [{ name: 's', path: '/w/s/SKILL.md', description: 'd' }],
          subscriptions: ['turn_start', 'tool_result'],
          interceptions: ['tool_call'],
        }),
      ],
      [],
    );
    expect(r).toEqual({
      extensions: [
        {
          name: 'x',
          scope: 'project',
          dir: '/w/.zut/extensions/x',
          version: '1.0.0',
          status: 'ok',
          state: 'running',
          commands: [{ name: 'hello', description: 'say hi', active: true }],
          tools: [{ name: 'weather', description: 'Weather', active: true, deferred: true, interactive: false }],
          subscriptions: ['turn_start', 'tool_result'],
          interceptions: ['tool_call'],
          skills: [{ name: 's', path: '/w/s/SKILL.md' }],
          diagnostics: [],
          logPath: '/z/logs/ext-x.log',
        },
      ],
      errors: [],
    });
    expect(doctorHasErrors(r)).toBe(false);
    // Subscriptions and interceptions in the text and markdown reports.
    expect(doctorText(r)).toContain('\n  subscribes: turn_start, tool_result\n  intercepts: tool_call\n');
    expect(doctorMarkdown(r)).toContain('- Subscribes: ` turn_start `, ` tool_result `\n- Intercepts: ` tool_call `');
    expect(doctorHasErrors(buildDoctorReport([info({ state: 'error', error: 'e' })]))).toBe(true);
    expect(doctorHasErrors(buildDoctorReport([], [{ ext: 'y', message: 'spawn failed' }]))).toBe(true);
    expect(doctorHasErrors(buildDoctorReport([info({ state: 'shadowed' }), info({ state: 'disabled' })]))).toBe(false);
    // A load error that is also the extension's own error is listed once.
    const dup = buildDoctorReport([info({ name: 'b', state: 'error', error: 'boom' })], [{ ext: 'b', message: 'boom' }, { ext: 'c', message: 'other' }]);
    expect(dup.errors).toEqual([{ ext: 'c', message: 'other' }]);
  });
});

const hostile = '[x](command:foo) <script>alert(1)</script> `code` ``` $(zap)';
const hostileReport = () =>
  buildDoctorReport(
    [
      info({
        name: 'evil`name',
        version: '<img src=x onerror=alert(1)>',
        commands: [{ name: 'c', description: hostile, ext: 'x', active: false }],
        tools: [{ ...tool('t'), description: '[y](https://evil.example)' }],
        diagnostics: ['multi\n\n[x](command:foo)\n```\n<script>'],
        state: 'error',
        error: 'spawn failed:\n# heading\n[x](command:foo)',
      }),
    ],
    [{ ext: 'evil', message: '````\n<b>bold</b>' }],
  );

describe('doctorMarkdown', () => {
  it('puts every extension-supplied value in a code span or block', () => {
    const md = doctorMarkdown(hostileReport());
    // Strip code spans/blocks the way a CommonMark renderer scopes them; nothing hostile may remain outside.
    const outside = md
      .replace(/^(`{3,})text\n[\s\S]*?\n\1$/gm, '')
      .replace(/(`+) [\s\S]*? \1/g, '');
    expect(outside).not.toMatch(/command:|<script|<img|<b>|https:|\$\(zap\)|\[x\]|\[y\]/);
    expect(md).toContain('`` evil`name ``');
    expect(md).toContain('- Command: ` /c ` (shadowed) — ```` [x](command:foo) <script>alert(1)</script> `code` ``` $(zap) ````');
    expect(md).toContain('```text\nmulti\n\n[x](command:foo)\n```\n<script>'.replace('```text', '````text'));
    expect(md).toContain('`````text\n````\n<b>bold</b>\n`````');
  });

  it('renders (with marked) to code, pre, headings, lists and paragraphs only: no link, HTML or command', async () => {
    // marked is what VS Code itself renders markdown with (present via @vscode/vsce); ESM, hence the dynamic import.
    const { marked } = await import('marked');
    const html = await marked.parse(doctorMarkdown(hostileReport()), { async: true });
    const tags = new Set([...html.matchAll(/<\/?([a-zA-Z0-9]+)/g)].map((m) => m[1]!.toLowerCase()));
    expect([...tags].sort()).toEqual(['code', 'h1', 'h2', 'li', 'p', 'pre', 'ul']);
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('href');
  });

  it('neutralises backticks and line breaks in inline spans', () => {
    expect(mdCode('a`b')).toBe('`` a`b ``');
    expect(mdCode('``')).toBe('``` `` ```');
    expect(mdCode('line1\n\n[x](command:a)')).toBe('` line1  [x](command:a) `');
    expect(mdCode('')).toBe('*(empty)*');
    expect(mdCodeBlock('x ``` y\n```')).toBe('````text\nx ``` y\n```\n````');
  });
});

describe('doctorText', () => {
  it('lists each extension with status, registrations, warnings and log; load errors at the end', () => {
    const text = doctorText(
      buildDoctorReport(
        [
          info({
            name: 'weather',
            version: '1.0.0',
            commands: [{ name: 'weather', description: 'current weather', ext: 'weather', active: true }],
            tools: [{ ...tool('read', false) }, { ...tool('ask'), interactive: true, deferred: true }],
            diagnostics: ['line one\nline two'],
          }),
          info({ name: 'old', scope: 'global', state: 'shadowed', shadowedBy: '/w/.zut/extensions/old', dir: '/z/extensions/old' }),
        ],
        [{ ext: 'bad', message: 'manifest: exec is required' }],
      ),
    );
    expect(text).toBe(
      [
        'weather 1.0.0 [project] warning',
        '  dir: /w/.zut/extensions/x',
        '  warning: line one',
        '    line two',
        '  command /weather - current weather',
        '  tool read (shadowed)',
        '  tool ask (deferred, interactive)',
        '  log: /z/logs/ext-x.log',
        'old [global] shadowed',
        '  dir: /z/extensions/old',
        '  shadowed by: /w/.zut/extensions/old',
        '  log: /z/logs/ext-x.log',
        '',
        'load errors:',
        '  bad: manifest: exec is required',
        '',
      ].join('\n'),
    );
    expect(doctorText(buildDoctorReport([]))).toBe('no extensions found\n');
  });

  it('escapes terminal control sequences and bidi overrides', () => {
    expect(sanitizeText('a\x1b[31mred\x07\r\nb\u202e')).toBe('a\\x1b[31mred\\x07\nb\\u{202e}');
    const text = doctorText(buildDoctorReport([info({ state: 'error', error: 'x\x1b]8;;http://e\x07link' })]));
    expect(text).not.toContain('\x1b');
    expect(text).toContain('error: x\\x1b]8;;http://e\\x07link');
  });
});

describe('doctorJson', () => {
  it('is {"extensions":[…],"errors":[…]}', () => {
    const r = hostileReport();
    const parsed = JSON.parse(doctorJson(r));
    expect(Object.keys(parsed)).toEqual(['extensions', 'errors']);
    expect(parsed).toEqual(JSON.parse(JSON.stringify(r)));
    expect(parsed.extensions[0].status).toBe('error');
  });
});
