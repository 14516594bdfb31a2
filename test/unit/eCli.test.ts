/**
 * `zut-host` with the sibling ecosystems (issue 13): the REAL e fixtures (test/fixtures/e) found in `~/.e/extensions`
 * (HOME is a temp dir) and a zot extension in `.zot/extensions`, through `doctor`, `command` and `tool`.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTemps, tempDir } from '../helpers/temp';
import { shExt } from '../helpers/hostFixtures';
import { builtCli } from '../helpers/built';
import { isolatedEnv, runProcess, type Run } from '../helpers/runProcess';

const E_FIXTURES = path.resolve(__dirname, '../fixtures/e');
let tmp: string;
let cli: string;
let homeDir: string;
let project: string;

function run(args: string[]): Promise<Run> {
  // HOME is the temp home holding ~/.e/extensions; $ZOT_HOME is an empty place inside it. The project's own
  // (.zot/extensions) start: $ZUT_ALLOW_PROJECT, as CI would set it.
  return runProcess(process.execPath, [cli, ...args], { cwd: project, env: isolatedEnv(homeDir, path.join(tmp, 'zut'), { ZUT_ALLOW_PROJECT: '1' }) });
}

beforeAll(async () => {
  tmp = tempDir('zut-ecli-');
  homeDir = path.join(tmp, 'home');
  project = path.join(tmp, 'project');
  const eExts = path.join(homeDir, '.e', 'extensions');
  await fs.mkdir(eExts, { recursive: true });
  for (const f of ['enode', 'epy']) await fs.symlink(path.join(E_FIXTURES, f), path.join(eExts, f));
  // A zot extension (its protocol-v2 hello is zut's) that shadows nothing, and one named like an e extension.
  for (const name of ['zotty', 'epy']) shExt(path.join(project, '.zot', 'extensions'), name, { version: '3.0' });
  cli = builtCli();
});
afterAll(cleanupTemps);

describe('zut-host with zot and e extensions', () => {
  it('doctor lists them with their ecosystem; the e copy of a zot name is shadowed; --no-e and --no-zot drop them', async () => {
    const r = await run(['doctor', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { extensions: Record<string, unknown>[] };
    const brief = report.extensions.map((e) => [e.name, e.ecosystem, e.scope, e.status]);
    expect(brief).toEqual([
      ['epy', 'zot', 'project', 'ok'],
      ['zotty', 'zot', 'project', 'ok'],
      ['enode', 'e', 'global', 'warning'], // its unbound shortcut is a diagnostic
      ['epy', 'e', 'global', 'shadowed'],
    ]);
    const enode = report.extensions[2]!;
    expect(enode).toMatchObject({ version: '1.0.0', entry: path.join(homeDir, '.e', 'extensions', 'enode', 'index.mjs'), interceptions: ['tool_call', 'turn_start'] });
    expect(report.extensions[3]).toMatchObject({ shadowedBy: path.join(project, '.zot', 'extensions', 'epy') });
    const text = await run(['doctor']);
    expect(text.stdout).toContain(`enode 1.0.0 [global, e] warning\n  dir: ${path.join(homeDir, '.e', 'extensions', 'enode')}\n  protocol: e\n  entry: `);
    expect(text.stdout).toContain('  warning: shortcuts (ctrl+alt+g) are not bound');
    const none = JSON.parse((await run(['doctor', '--json', '--no-e', '--no-zot'])).stdout) as { extensions: unknown[] };
    expect(none.extensions).toEqual([]);
  });

  it('command: an e notice, an e question answered "no ui" headless, a refused session.model', async () => {
    const ping = await run(['command', 'e_ping', 'hi', 'there']);
    expect(ping.code).toBe(0);
    expect(JSON.parse(ping.stdout)).toMatchObject({ ext: 'enode', action: 'display', display: 'pong hi there' });
    const ask = await run(['command', 'e_ask']);
    expect(JSON.parse(ask.stdout).display).toMatch(/^ask failed: no ui: enode asked "Colour\?" \(a select question\)/);
    const model = await run(['command', 'e_model']);
    expect(JSON.parse(model.stdout).display).toBe("refused: session.model: model switching is not available: the model is the user's choice in VS Code");
  });

  it('tool: a Python e tool, an error result (exit 1), progress and notify on stderr, the e guard blocking', async () => {
    const add = await run(['tool', 'py_add', '{"a":20,"b":22}', '--no-zot']);
    expect(add.code).toBe(0);
    expect(JSON.parse(add.stdout)).toMatchObject({ ext: 'epy', isError: false, content: [{ type: 'text', text: '42' }] });
    const boom = await run(['tool', 'py_boom', '--no-zot']);
    expect(boom.code).toBe(1);
    expect(JSON.parse(boom.stdout)).toMatchObject({ isError: true, content: [{ type: 'text', text: 'py_boom always fails' }] });
    const greet = await run(['tool', 'e_greet', '{"who":"cli"}']);
    expect(greet.code).toBe(0);
    expect(greet.stderr).toBe('[enode] progress: greeting…\n[enode] notify info: greeting cli\n');
    const blocked = await run(['tool', 'e_danger']);
    expect(blocked.code).toBe(1);
    expect(JSON.parse(blocked.stdout)).toMatchObject({ isError: true, blocked: { ext: 'enode', reason: 'enode refuses e_danger' } });
  });
});
