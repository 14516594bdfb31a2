/**
 * A copied MCP configuration's pins (src/host/extensions/pins.ts, `zut-host mcp --allow-project --pin ID=FP`): the
 * real CLI bundle as an MCP server starts a project extension only while its content has the fingerprint it was
 * pinned with (the consent fingerprint, taken as "Copy MCP Client Configuration…" takes it). One changed since, or
 * new, is held and named on stderr; the others start.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectPins } from '../../src/host/extensions/pins';
import { mcpArgs } from '../../src/agentSetup/mcpConfig';
import { builtCli } from '../helpers/built';
import { cleanupTemps, nodeExt, tempDir, until, zutHome } from '../helpers/hostFixtures';
import { isolatedEnv, runProcess } from '../helpers/runProcess';
import { onJsonLines } from '../helpers/stdioDriver';

const cli = builtCli();
afterAll(cleanupTemps);

/** Runs `zut-host <args>` as an MCP server until `settled` says so; returns the tool names and its stderr. */
async function serve(home: string, args: string[], settled: (tools: string[], stderr: string) => boolean): Promise<{ tools: string[]; stderr: string }> {
  const child = spawn(process.execPath, [cli, ...args], { env: isolatedEnv(home, home) });
  let stderr = '';
  const replies = new Map<number, { result?: { tools?: { name: string }[] } }>();
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  onJsonLines(child.stdout, (m) => {
    if (typeof m.id === 'number') replies.set(m.id, m as { result?: { tools?: { name: string }[] } });
  });
  const exited = new Promise((r) => child.on('exit', r));
  let id = 0;
  const request = async (method: string, params: object = {}) => {
    const n = ++id;
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: n, method, params }) + '\n');
    return until(() => replies.get(n), 20_000, `reply to ${method}`);
  };
  try {
    await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pins', version: '1' } });
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
    let tools: string[] = [];
    await until(async () => {
      tools = ((await request('tools/list')).result?.tools ?? []).map((t) => t.name).sort();
      return settled(tools, stderr) || undefined;
    }, 20_000, 'the tools settled');
    await new Promise((r) => setTimeout(r, 300)); // what else would come late (a held extension starting after all)
    tools = ((await request('tools/list')).result?.tools ?? []).map((t) => t.name).sort();
    return { tools, stderr };
  } finally {
    child.stdin.end();
    await exited;
  }
}

describe('zut-host mcp --allow-project --pin', () => {
  it('starts the pinned content; an extension changed since, or new, is held and named, the rest start', async () => {
    const { home } = zutHome();
    const cwd = tempDir('zut-pins-');
    const exts = path.join(cwd, '.zut', 'extensions');
    nodeExt(exts, { name: 'kit', tools: [{ name: 'alpha' }] });
    const other = nodeExt(exts, { name: 'other', tools: [{ name: 'beta' }] });
    const { pins, refused } = await projectPins(cwd, { zutHome: home });
    expect(refused).toEqual([]);
    expect(pins.map((p) => p.id)).toEqual(['.zut/extensions/kit', '.zut/extensions/other']);
    const args = mcpArgs({ launcher: 'unused', folder: cwd, allowProject: true, pins });
    expect(args.slice(0, 5)).toEqual(['mcp', '--cwd', cwd, '--allow-project', '--pin']);

    const before = await serve(home, args, (t) => t.length === 2);
    expect(before.tools).toEqual(['alpha', 'beta']);
    expect(before.stderr).toBe('');

    // A pull changes `other`; a new `third` appears.
    const manifest = path.join(other, 'extension.json');
    fs.writeFileSync(manifest, JSON.stringify({ ...JSON.parse(fs.readFileSync(manifest, 'utf8')), description: 'changed' }));
    nodeExt(exts, { name: 'third', tools: [{ name: 'gamma' }] });
    const after = await serve(home, args, (t, err) => t.includes('alpha') && err.includes('third'));
    expect(after.tools).toEqual(['alpha']);
    expect(after.stderr).toContain(`zut-host mcp: other (${other}) not started: its content is not the one pinned when this configuration was copied`);
    expect(after.stderr).toContain(`zut-host mcp: third (${path.join(exts, 'third')}) not started`);

    // Told otherwise (no --pin), whatever is there starts.
    const unpinned = await serve(home, ['mcp', '--cwd', cwd, '--allow-project'], (t) => t.length === 3);
    expect(unpinned.tools).toEqual(['alpha', 'beta', 'gamma']);
  }, 120_000);

  it('--pin needs --allow-project and ID=64 hex digits inside --cwd (usage errors)', async () => {
    const { home } = zutHome();
    const cwd = tempDir('zut-pins-');
    const fp = 'a'.repeat(64);
    for (const [args, why] of [
      [['--pin', `x=${fp}`], '--pin pins project extensions: it needs --allow-project'],
      [['--allow-project', '--pin', 'x=abc'], '--pin x=abc: expected ID=FINGERPRINT'],
      [['--allow-project', '--pin', `../x=${fp}`], `--pin ../x=${fp}: expected ID=FINGERPRINT`],
    ] as const) {
      const r = await runProcess(process.execPath, [cli, 'doctor', '--cwd', cwd, ...args], { env: isolatedEnv(home, home) });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(why);
    }
  });
});
