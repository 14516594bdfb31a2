/**
 * `--ext` takes any ecosystem (issue 23, point 3): the REAL e fixtures (a single executable file, a folder with
 * `index.mjs`) and the zot fixture folder, each given alone to `trace`, `command`, `tool` and `mcp`; a folder that
 * is none of the three layouts is an error naming them.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from '../helpers/built';
import { isolatedEnv, runProcess, type Run } from '../helpers/runProcess';
import { cleanupTemps, tempDir } from '../helpers/temp';

const FIXTURES = path.resolve(__dirname, '../fixtures');
const EPY_FILE = path.join(FIXTURES, 'e', 'epy', 'epy.py');
const ENODE_DIR = path.join(FIXTURES, 'e', 'enode');
const ZOT_DIR = path.join(FIXTURES, 'zot', 'zot-node');
let tmp: string;
let cli: string;

function run(args: string[]): Promise<Run> {
  // No ~/.e, no $ZOT_HOME, no project extensions: only the --ext path runs.
  return runProcess(process.execPath, [cli, ...args], { cwd: path.join(tmp, 'project'), env: isolatedEnv(tmp, path.join(tmp, 'zut')) });
}

beforeAll(async () => {
  tmp = tempDir('zut-layouts-');
  await fs.mkdir(path.join(tmp, 'project'));
  cli = builtCli();
});
afterAll(cleanupTemps);

describe('--ext recognises the layout', () => {
  it('an e extension file: tool and doctor', async () => {
    const add = await run(['tool', '--ext', EPY_FILE, 'py_add', '{"a":40,"b":2}']);
    expect(add.code, add.stderr).toBe(0);
    expect(JSON.parse(add.stdout)).toMatchObject({ ext: 'epy', isError: false, content: [{ type: 'text', text: '42' }] });
    const doc = JSON.parse((await run(['doctor', '--json', '--ext', EPY_FILE])).stdout) as { extensions: Record<string, unknown>[] };
    expect(doc.extensions.map((e) => [e.name, e.ecosystem, e.scope, e.entry])).toEqual([['epy', 'e', 'explicit', EPY_FILE]]);
  });

  it('an e extension folder: command, and trace shows its JSON-RPC both ways', async () => {
    const ping = await run(['command', '--ext', ENODE_DIR, 'e_ping', 'hi']);
    expect(ping.code, ping.stderr).toBe(0);
    expect(JSON.parse(ping.stdout)).toMatchObject({ ext: 'enode', action: 'display', display: 'pong hi' });
    const t = await run(['trace', '--ext', ENODE_DIR, 'command', 'e_ping', 'traced']);
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toMatch(/^-> .*"method":"initialize"/m);
    expect(t.stdout).toMatch(/^<- .*pong traced/m);
  });

  it('a zot extension folder: command, and doctor calls it zot when it sits in .zot/extensions', async () => {
    const r = await run(['command', '-q', '--ext', ZOT_DIR, 'zseen']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ext: 'zot-node', action: 'display' });
    const inZot = path.join(tmp, 'elsewhere', '.zot', 'extensions', 'zot-node');
    await fs.mkdir(path.dirname(inZot), { recursive: true });
    await fs.symlink(ZOT_DIR, inZot);
    const doc = JSON.parse((await run(['doctor', '--json', '--ext', inZot])).stdout) as { extensions: Record<string, unknown>[] };
    expect(doc.extensions.map((e) => [e.name, e.ecosystem, e.scope, e.protocol])).toEqual([['zot-node', 'zot', 'explicit', 'zot']]);
  });

  it('mcp serves an e extension file alone: initialize, tools/list, tools/call', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, 'mcp', '--cwd', path.join(tmp, 'project'), '--ext', EPY_FILE],
      env: isolatedEnv(tmp, path.join(tmp, 'zut')) as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((x) => x.name)).toContain('py_add');
      const r = await client.callTool({ name: 'py_add', arguments: { a: 1, b: 2 } });
      expect(r.content).toEqual([{ type: 'text', text: '3' }]);
    } finally {
      await client.close();
    }
  });

  it('a folder that is none of the three layouts, or a file that is not executable, is an error naming them (exit 1)', async () => {
    const none = path.join(tmp, 'nothing-here');
    await fs.mkdir(none);
    await fs.writeFile(path.join(none, 'README.md'), '# hi');
    const r = await run(['doctor', '--ext', none]);
    expect(r.code).toBe(1);
    const layouts = `${none} is not an extension: it is none of the three layouts — a zut or zot extension folder (with extension.json), an e extension file (an executable), or an e extension folder (index.*, nothing-here.* or a sole executable)`;
    expect(r.stdout).toContain(layouts);
    const notExec = path.join(none, 'README.md');
    const t = await run(['trace', '--ext', notExec]);
    expect(t.code).toBe(1);
    expect(t.stderr).toContain('README.md is a file that is not executable (chmod +x it)');
  });
});
