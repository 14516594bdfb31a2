/**
 * Host-level fuzz: a live fixture extension spews arbitrary bytes and valid-but-unexpected frames (a second hello,
 * registrations after ready, stray replies, odd levels, blank submits…) into the real Manager between tool calls.
 * The host must stay up, settle the call, report every unusable line as a diagnostic naming its error, dispatch
 * every valid spontaneous frame to the HostUi once, and keep the HostUi contracts of hostUi.ts.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExtensionLogLine } from '../../src/host/types';
import { NullHostUi, type HostUi, type NoteLevel, type PanelRender } from '../../src/host/hostUi';
import { Manager } from '../../src/host/manager';
import { LineDecoder, parseExtFrame, type PanelSpec } from '../../src/protocol';
import { makeZutHome } from '../fixtures/bench/home';
import { byteSoup, extFrame } from './arbitraries';

const SCALE = Number(process.env.ZUT_STRESS_SCALE ?? 1);
const LEVELS = new Set<NoteLevel>(['info', 'success', 'warn', 'error']);

/** NullHostUi's no-op methods declare no parameters; typed as HostUi so overrides may take them. */
const Base = NullHostUi as unknown as new () => HostUi;

/** Counts calls per method and checks the port's documented contracts on every call. */
class ContractUi extends Base {
  calls = new Map<string, number>();
  violations: string[] = [];
  private hit(method: string, ext: string): void {
    this.calls.set(method, (this.calls.get(method) ?? 0) + 1);
    if (ext !== 'hf') this.violations.push(`${method} for ext ${ext}`);
  }
  override notify(ext: string, level: NoteLevel, message: string): void {
    this.hit('notify', ext);
    if (!LEVELS.has(level) || typeof message !== 'string') this.violations.push(`notify(${level}, ${typeof message})`);
  }
  override clearNotes(ext: string): void {
    this.hit('clearNotes', ext);
  }
  override status(ext: string, key: string, _level: string | undefined, text: string): void {
    this.hit('status', ext);
    if (typeof key !== 'string' || typeof text !== 'string') this.violations.push('status with non-string key/text');
  }
  override widget(ext: string): void {
    this.hit('widget', ext);
  }
  override widgetClear(ext: string): void {
    this.hit('widgetClear', ext);
  }
  override alert(ext: string): void {
    this.hit('alert', ext);
  }
  override submit(ext: string, text: string): void {
    this.hit('submit', ext);
    if (text !== text.trim() || text === '') this.violations.push(`submit ${JSON.stringify(text)} not trimmed/non-empty`);
  }
  override submitSlash(ext: string, text: string): void {
    this.hit('submitSlash', ext);
    if (!text.startsWith('/')) this.violations.push(`submitSlash ${JSON.stringify(text)}`);
  }
  override openPanel(ext: string, panel: PanelSpec): void {
    this.hit('openPanel', ext);
    if (typeof panel.id !== 'string' || panel.id === '') this.violations.push('openPanel without id');
  }
  override panelRender(ext: string, render: PanelRender): void {
    this.hit('panelRender', ext);
    if (typeof render.panel_id !== 'string') this.violations.push('panelRender without panel_id');
  }
  override panelClose(ext: string): void {
    this.hit('panelClose', ext);
  }
}

/** HostUi method a valid spontaneous frame must reach (once), or undefined when it reaches none. */
function expectedCall(frame: Record<string, unknown>): string | undefined {
  switch (frame.type) {
    case 'notify':
      return 'notify';
    case 'clear_notes':
      return 'clearNotes';
    case 'status':
      return 'status';
    case 'widget':
      return 'widget';
    case 'widget_clear':
      return 'widgetClear';
    case 'alert':
      return 'alert';
    case 'open_panel':
      return 'openPanel';
    case 'panel_render':
      return 'panelRender';
    case 'panel_close':
      return 'panelClose';
    case 'submit':
      return String(frame.text).trim() ? 'submit' : undefined;
    case 'submit_slash':
      return String(frame.text).trim().startsWith('/') ? 'submitSlash' : undefined;
    default:
      return undefined;
  }
}

describe('host under garbage and stray frames', () => {
  const home = makeZutHome([{ kind: 'node', name: 'hf' }], 'zut-hostfuzz-');
  const ui = new ContractUi();
  const manager = new Manager({ folders: [], zutHome: home.home, ui, hostVersion: 'fuzz', autoRestart: false });
  const hostLog: string[] = [];
  manager.onDidLog((l: ExtensionLogLine) => {
    if (l.kind === 'host') hostLog.push(l.text);
  });
  beforeAll(async () => {
    const r = await manager.start();
    expect(r.ready).toEqual(['hf']);
  });
  afterAll(async () => {
    await manager.stop();
    manager.dispose();
    home.dispose();
  });

  it('stays up, settles every call, reports every unusable line and dispatches every valid frame once', async () => {
    let cases = 0;
    // Registrations that would rename our own tools are left out: they are legal but would end the test's calls.
    const frame = extFrame.filter((f) => !(f.type === 'register_tool' && /^(spew|echo|flood|storm)_hf$/i.test(String(f.name))));
    const piece = fc.oneof(
      frame.map((f) => Buffer.from(JSON.stringify(f) + '\n')),
      byteSoup,
      fc.string({ maxLength: 5 }).map((id) => Buffer.from(JSON.stringify({ type: 'tool_result', id, content: [] }) + '\n')),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { minLength: 1, maxLength: 12 }), async (pieces) => {
        cases++;
        const spew = Buffer.concat(pieces);
        const lines = new LineDecoder().push(Buffer.concat([spew, Buffer.from('\n')]));
        const before = new Map(ui.calls);
        hostLog.length = 0;

        const r = await manager.callTool('spew_hf', { b64: spew.toString('base64') }, { timeoutMs: 10_000 });
        expect(r.content).toEqual([{ type: 'text', text: 'spewed' }]);

        const want = new Map<string, number>();
        const errors: string[] = [];
        for (const d of lines) {
          if (!('line' in d)) throw new Error('no line of this size can overflow');
          const p = parseExtFrame(d.line);
          if (!p.ok) errors.push(p.error.message);
          else {
            const m = expectedCall(p.frame as Record<string, unknown>);
            if (m) want.set(m, (want.get(m) ?? 0) + 1);
          }
        }
        // Every unusable line is reported with its own error, in order.
        let at = 0;
        for (const e of errors) {
          const found = hostLog.findIndex((l, i) => i >= at && l.includes(e));
          expect(found, `no diagnostic for "${e}" in ${JSON.stringify(hostLog)}`).toBeGreaterThanOrEqual(0);
          at = found + 1;
        }
        for (const [m, n] of new Map([...want, ...[...ui.calls.keys()].map((k) => [k, want.get(k) ?? 0] as const)])) {
          expect((ui.calls.get(m) ?? 0) - (before.get(m) ?? 0), `HostUi.${m}`).toBe(n);
        }
        expect(ui.violations).toEqual([]);
        const info = manager.extensions()[0]!;
        expect([info.state, info.pending]).toEqual(['running', 0]);
      }),
      { numRuns: Math.max(20, Math.round(300 * SCALE)) },
    );
    process.stdout.write(`host fuzz: ${cases} cases\n`);
  });
});
