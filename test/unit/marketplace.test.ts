// The extension manifest's user-facing parts: icon, walkthrough, welcome views, setting scopes, palette
// when-clauses, and the files the vsix must carry for them (.vscodeignore is an allow-list).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  icon: string;
  preview: boolean;
  keywords: string[];
  repository?: unknown;
  contributes: {
    commands: { command: string }[];
    configuration: { properties: Record<string, { scope?: string }> };
    menus: Record<string, { command: string; when?: string }[]>;
    viewsWelcome: { view: string; contents: string }[];
    walkthroughs: { id: string; title: string; steps: { id: string; title: string; description: string; completionEvents?: string[]; media: { markdown?: string; image?: string } }[] }[];
  };
};
const shipped = fs.readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8').split('\n').filter((l) => l.startsWith('!')).map((l) => l.slice(1));
/** Whether the .vscodeignore allow-list ships `file` (patterns used there: exact, `dir/**`, `dir/*.ext`, `dir/x-*.ext`). */
const isShipped = (file: string): boolean =>
  shipped.some((p) => new RegExp(`^${p.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*\*/g, '.+').replace(/(?<!\.\+)\*/g, '[^/]*')}$`).test(file));

describe('marketplace face', () => {
  it('has a preview flag, keywords, no placeholder repository, and a PNG icon drawn by scripts/icon.mjs', () => {
    expect(pkg.preview).toBe(true);
    expect(pkg.keywords.length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(pkg.repository ?? '')).not.toMatch(/example\.invalid/);
    expect(pkg.icon).toBe('media/icon.png');
    expect(isShipped(pkg.icon)).toBe(true);
    const out = execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'icon.mjs'), '--check'], { encoding: 'utf8' });
    expect(out).toMatch(/up to date/);
    const png = fs.readFileSync(path.join(ROOT, pkg.icon));
    expect(png.readUInt32BE(16)).toBe(128);
    expect(png.readUInt32BE(20)).toBe(128);
  });

  it('ships README, CHANGELOG and the README picture; README keeps the two commands', () => {
    for (const f of ['README.md', 'CHANGELOG.md', 'docs/images/zut-vscode.png']) expect(isShipped(f), f).toBe(true);
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm ci && npm test');
    expect(readme).toContain('](docs/images/zut-vscode.png)');
    expect(readme).toContain('](CONTRIBUTING.md)');
  });

  it('has the "Get started" walkthrough with six steps whose media exist and ship', () => {
    const [w] = pkg.contributes.walkthroughs;
    expect(w.title).toBe('Get started with zut extensions');
    expect(w.steps.map((s) => s.id)).toEqual(['openExample', 'runCommand', 'chat', 'agentSkills', 'whereZutReaches', 'writeOwn']);
    for (const s of w.steps) {
      const media = s.media.markdown ?? s.media.image ?? '';
      expect(fs.existsSync(path.join(ROOT, media)), media).toBe(true);
      expect(isShipped(media), media).toBe(true);
    }
    // The Widgets welcome's "Get Started" opens this walkthrough (publisher.name#id).
    const widgets = pkg.contributes.viewsWelcome.find((v) => v.view === 'zut.widgets');
    expect(widgets?.contents).toContain(`openWalkthrough?%22zut.zut-vscode%23${w.id}%22`);
  });

  it('issue 32, rough edge 6: step texts show no literal backticks; "Write your own" offers New Extension…', () => {
    const [w] = pkg.contributes.walkthroughs;
    for (const s of w.steps) expect(s.description, s.id).not.toContain('`');
    const write = w.steps.find((s) => s.id === 'writeOwn')!;
    expect(write.description).toMatch(/\n\[New Extension…\]\(command:zut\.newExtension\)$/);
    expect(write.completionEvents).toEqual(['onCommand:zut.newExtension']);
  });

  it('declares a scope for every setting (zut.home and zut.extensionPaths machine: a workspace cannot set them)', () => {
    const props = pkg.contributes.configuration.properties;
    for (const [k, v] of Object.entries(props)) expect(v.scope, k).toBeDefined();
    expect(props['zut.home'].scope).toBe('machine');
    expect(props['zut.extensionPaths'].scope).toBe('machine');
    expect(props['zut.notes.notifications']).toBeDefined();
  });

  it('palette when-clauses name declared commands; per-extension commands wait for zut.hasExtensions', () => {
    const declared = new Set(pkg.contributes.commands.map((c) => c.command));
    for (const items of Object.values(pkg.contributes.menus)) for (const m of items) expect(declared.has(m.command), m.command).toBe(true);
    const when = new Map(pkg.contributes.menus.commandPalette.map((m) => [m.command, m.when]));
    for (const c of ['zut.runCommand', 'zut.callTool', 'zut.restartExtension', 'zut.removeExtension']) expect(when.get(c)).toBe('zut.hasExtensions');
    for (const c of ['zut.reload', 'zut.doctor', 'zut.install']) expect(when.get(c)).toBeUndefined();
  });
});
