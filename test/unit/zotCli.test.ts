/**
 * zot extensions (protocol v1) through the headless CLI, end to end: the real bundle (src/cli.ts built with esbuild)
 * spawning the zot fixtures of test/fixtures/zot (Node and Python) given with `--ext`.
 */
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTemps, tempDir } from '../helpers/temp';
import { builtCli } from '../helpers/built';
import { isolatedEnv, runProcess, type Run } from '../helpers/runProcess';

const ZOT = path.resolve(__dirname, '../fixtures/zot');
const EXTS = ['--ext', path.join(ZOT, 'zot-node'), '--ext', path.join(ZOT, 'zot-py')];
let tmp: string;
let cli: string;

function run(args: string[]): Promise<Run> {
  return runProcess(process.execPath, [cli, ...args], { cwd: tmp, env: isolatedEnv(tmp, path.join(tmp, 'home')) });
}

beforeAll(async () => {
  tmp = tempDir('zut-zotcli-');
  cli = builtCli();
});
afterAll(cleanupTemps);

describe('zut-host with zot extensions', () => {
  it('doctor: both zot fixtures load, marked protocol zot, with their commands and tools; what cannot map is a warning', async () => {
    const r = await run(['doctor', ...EXTS, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { errors: unknown[]; extensions: Array<Record<string, unknown>> };
    // zot-node subscribes to permission_decision, which this host sends (guards' refusals, agents' hooks): no warning.
    expect(report.errors).toEqual([]);
    const byName = Object.fromEntries(report.extensions.map((e) => [e.name, e]));
    expect(byName['zot-node']).toMatchObject({ status: 'ok', protocol: 'zot', scope: 'explicit', interceptions: ['before_agent_start'], diagnostics: [] });
    expect(byName['zot-py']).toMatchObject({ status: 'ok', protocol: 'zot', version: '0.2.0', commands: expect.arrayContaining([{ name: 'pyhello', description: 'say hi (python)', active: true }]) });
    const text = await run(['doctor', ...EXTS]);
    expect(text.stdout).toContain('zot-py 0.2.0 [explicit] ok\n  dir: ');
    expect(text.stdout).toContain('  protocol: zot\n');
  });

  it('tool: a zot tool through the guarded path; a zot tool that calls another extension\'s tool', async () => {
    const upper = await run(['tool', ...EXTS, 'py_upper', '{"text":"cli"}']);
    expect(upper.code).toBe(0);
    expect(JSON.parse(upper.stdout)).toMatchObject({ ext: 'zot-py', isError: false, content: [{ type: 'text', text: 'CLI' }] });
    const chain = await run(['tool', ...EXTS, 'zchain', '{"tool":"py_upper","args":{"text":"nested"}}']);
    expect(chain.code).toBe(0);
    expect(JSON.parse(chain.stdout)).toMatchObject({ ext: 'zot-node', content: [{ type: 'text', text: 'chain: NESTED' }] });
  });

  it('command: call_tool from a command; tool_prompt runs its tool and prints the result beside the prompt', async () => {
    const relay = await run(['command', ...EXTS, 'pyask', 'zforecast {"city":"Graz"}']);
    expect(relay.code).toBe(0);
    expect(JSON.parse(JSON.parse(relay.stdout).display as string)).toEqual({ name: 'zforecast', is_error: false, text: 'Graz: 16°C, fog' });
    const tp = await run(['command', ...EXTS, 'zshortcut', 'quiet please']);
    expect(tp.code).toBe(0);
    expect(JSON.parse(tp.stdout)).toMatchObject({
      ext: 'zot-node',
      action: 'tool_prompt',
      prompt: 'and summarise it',
      tool_name: 'py_upper',
      tool_args: { text: 'quiet please' },
      tool_result: { ext: 'zot-py', isError: false, content: [{ type: 'text', text: 'QUIET PLEASE' }] },
    });
  });

  it('command: an unknown tool in call_tool is an error result, not a hang', async () => {
    const r = await run(['command', ...EXTS, 'zrelay', 'nope {}']);
    expect(r.code).toBe(0); // the command itself answered (display)
    expect(JSON.parse(JSON.parse(r.stdout).display as string)).toMatchObject({ is_error: true, text: 'call_tool: unknown tool nope' });
  });
});
