/**
 * The headless CLI, end to end: the real bundle (built from src/cli.ts with esbuild) spawning real fixture
 * extensions (Node scripts written to a temp dir) through the Manager.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeNodeExtension } from '../helpers/fakeExtension';
import { cleanupTemps, tempDir } from '../helpers/temp';
import { builtCli } from '../helpers/built';
import { isolatedEnv, runProcess, type Run } from '../helpers/runProcess';

let tmp: string;
let cli: string;
let home: string;

/** A protocol v2 extension: commands echo/fail, tools add/broken/slow; `silent` never sends ready. */
const FIXTURE = String.raw`
const fs = require('node:fs');
const path = require('node:path');
const readline = require('node:readline');
const [name, mode, markDir] = process.argv.slice(2);
const emit = (o) => process.stdout.write(JSON.stringify(o) + '\n');
let pendingApprove;
fs.writeFileSync(path.join(markDir, name + '.pid'), String(process.pid));
emit({ type: 'hello', protocol_version: 2, name, version: '1.2.3', capabilities: ['commands', 'tools'] });
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.type === 'hello_ack') {
    process.stderr.write('started in ' + m.cwd + '\n');
    emit({ type: 'register_command', name: 'echo', description: 'echo args' });
    emit({ type: 'register_command', name: 'fail' });
    emit({ type: 'register_tool', name: 'add', description: 'a+b', schema: { type: 'object' } });
    emit({ type: 'register_tool', name: 'broken' });
    emit({ type: 'register_tool', name: 'slow' });
    emit({ type: 'register_command', name: 'errorf' });
    emit({ type: 'register_command', name: 'chatty' });
    emit({ type: 'register_command', name: 'panelcmd' });
    emit({ type: 'register_tool', name: 'approve' });
    emit({ type: 'register_tool', name: 'asks', interactive: true });
    emit({ type: 'subscribe', events: ['turn_start', 'agent_end'], intercept: ['tool_call'] });
    if (mode !== 'silent') emit({ type: 'ready' });
  } else if (m.type === 'command_invoked' && m.name === 'errorf') {
    emit({ type: 'command_response', id: m.id, action: 'noop', error: 'bad input' });
  } else if (m.type === 'command_invoked' && m.name === 'chatty') {
    emit({ type: 'notify', level: 'warn', message: 'careful' });
    emit({ type: 'status', key: 'phase', text: 'working' });
    emit({ type: 'command_response', id: m.id, action: 'display', display: 'done' });
  } else if (m.type === 'command_invoked' && m.name === 'panelcmd') {
    emit({ type: 'command_response', id: m.id, action: 'open_panel', open_panel: { id: 'cmdpanel', title: 'Pick', lines: ['a', 'b'] } });
  } else if (m.type === 'panel_key' && m.panel_id === 'cmdpanel') {
    emit({ type: 'panel_render', panel_id: 'cmdpanel', lines: ['picked ' + (m.text || m.key)] });
    emit({ type: 'panel_close', panel_id: 'cmdpanel' });
  } else if (m.type === 'panel_key' && m.panel_id === 'approve-1') {
    const ok = m.key === 'rune' && m.text === 'y';
    emit({ type: 'panel_render', panel_id: 'approve-1', lines: [ok ? 'approved' : 'denied'] });
    emit({ type: 'panel_close', panel_id: 'approve-1' });
    emit({ type: 'tool_result', id: pendingApprove, content: [{ type: 'text', text: ok ? 'approved' : 'denied' }], is_error: !ok });
  } else if (m.type === 'event_intercept') {
    emit({ type: 'event_intercept_response', id: m.id });
  } else if (m.type === 'command_invoked') {
    if (m.name === 'echo') emit({ type: 'command_response', id: m.id, action: 'display', display: 'echo:' + m.args });
    else emit({ type: 'command_response', id: m.id, action: 'error', error: 'nope' });
  } else if (m.type === 'tool_call') {
    if (m.name === 'add') emit({ type: 'tool_result', id: m.id, content: [{ type: 'text', text: String(m.args.a + m.args.b) }] });
    if (m.name === 'broken') emit({ type: 'tool_result', id: m.id, content: [{ type: 'text', text: 'bad' }], is_error: true });
    if (m.name === 'approve' || m.name === 'asks') {
      pendingApprove = m.id;
      emit({ type: 'open_panel', panel: { id: 'approve-1', title: 'Approve?', lines: ['Run it?'], footer: 'y yes - n no' } });
    }
  } else if (m.type === 'shutdown') {
    fs.writeFileSync(path.join(markDir, name + '.shutdown'), 'ok');
    emit({ type: 'shutdown_ack' });
    process.exit(0);
  }
});
`;

/** The FIXTURE extension `name` in `<root>/<name>`, run by this Node in `mode`; returns its dir. */
function fixture(root: string, name: string, mode = 'normal'): string {
  return writeNodeExtension(root, name, FIXTURE, { exec: process.execPath, absolute: true, args: [name, mode, tmp], manifest: { version: '1.2.3' } });
}


function run(args: string[], cwd = tmp): Promise<Run> {
  // HOME and ZOT_HOME too: the sibling ecosystems' homes (~/.e, $ZOT_HOME) of the machine are not part of the test.
  return runProcess(process.execPath, [cli, ...args], { cwd, env: isolatedEnv(tmp, home) });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The fixture got `shutdown` and its process is gone. */
async function expectShutDown(name: string): Promise<void> {
  expect(await fs.readFile(path.join(tmp, `${name}.shutdown`), 'utf8')).toBe('ok');
  expect(alive(Number(await fs.readFile(path.join(tmp, `${name}.pid`), 'utf8')))).toBe(false);
}

beforeAll(async () => {
  tmp = tempDir('zut-cli-');
  home = path.join(tmp, 'home');
  cli = builtCli();
});
afterAll(cleanupTemps);

describe('zut-host doctor', () => {
  it('reports a healthy --ext extension as JSON, exit 0, and shuts it down', async () => {
    const dir = fixture(path.join(tmp, 'dev'), 'healthy');
    const r = await run(['doctor', '--ext', dir, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.errors).toEqual([]);
    expect(report.extensions).toEqual([
      expect.objectContaining({
        name: 'healthy',
        scope: 'explicit',
        dir,
        version: '1.2.3',
        status: 'ok',
        commands: [
          { name: 'echo', description: 'echo args', active: true },
          { name: 'fail', active: true },
          { name: 'errorf', active: true },
          { name: 'chatty', active: true },
          { name: 'panelcmd', active: true },
        ],
        tools: [
          expect.objectContaining({ name: 'add', description: 'a+b', active: true }),
          expect.objectContaining({ name: 'broken', active: true }),
          expect.objectContaining({ name: 'slow', active: true }),
          expect.objectContaining({ name: 'approve', active: true, interactive: false }),
          expect.objectContaining({ name: 'asks', active: true, interactive: true }),
        ],
        subscriptions: ['turn_start', 'agent_end'],
        interceptions: ['tool_call'],
        logPath: path.join(home, 'logs', 'ext-healthy.log'),
      }),
    ]);
    await expectShutDown('healthy');
    expect(await fs.readFile(path.join(home, 'logs', 'ext-healthy.log'), 'utf8')).toContain(`started in ${tmp}`);
  });

  it('finds project extensions of --cwd, shows auto-ready, shadowing and manifest errors; exit 1', async () => {
    const project = path.join(tmp, 'project');
    fixture(path.join(project, '.zut', 'extensions'), 'quiet', 'silent');
    fixture(path.join(project, '.zut', 'extensions'), 'dup');
    fixture(path.join(home, 'extensions'), 'dup');
    await fs.mkdir(path.join(project, '.zut', 'extensions', 'broken'), { recursive: true });
    await fs.writeFile(path.join(project, '.zut', 'extensions', 'broken', 'extension.json'), '{"name":"broken"}');
    const r = await run(['doctor', '--cwd', project, '--allow-project']);
    expect(r.code).toBe(1);
    const text = r.stdout;
    expect(text).toMatch(/^broken \[project\] error\n {2}dir: .*broken\n {2}error: manifest: exec is required$/m);
    expect(text).toMatch(/^dup 1\.2\.3 \[project\] (ok|warning)$/m);
    expect(text).toMatch(/^quiet 1\.2\.3 \[project\] auto-ready$/m);
    expect(text).toContain(`dup 1.2.3 [global] shadowed\n  dir: ${path.join(home, 'extensions', 'dup')}\n  shadowed by: ${path.join(project, '.zut', 'extensions', 'dup')}`);
    expect(text).toContain('\n  command /echo - echo args\n');
    expect(text).toContain('\n  subscribes: turn_start, agent_end\n  intercepts: tool_call\n');
    await expectShutDown('quiet');
    await expectShutDown('dup');
    await fs.rm(path.join(home, 'extensions'), { recursive: true });
  });
});

describe('zut-host command', () => {
  it('prints the command_response as JSON, exit 0', async () => {
    const dir = fixture(path.join(tmp, 'dev'), 'cmd');
    const r = await run(['command', '--ext', dir, 'ECHO', 'hello', 'world']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ type: 'command_response', id: expect.any(String), action: 'display', display: 'echo:hello world', ext: 'cmd' });
    await expectShutDown('cmd');
  });

  it('exits 1 on an error response and on an unknown command', async () => {
    const dir = fixture(path.join(tmp, 'dev'), 'cmdfail');
    const r = await run(['command', '-e', dir, 'fail']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ action: 'error', error: 'nope', ext: 'cmdfail' });
    const u = await run(['command', '-e', dir, 'nosuch']);
    expect(u.code).toBe(1);
    expect(u.stderr).toBe('zut-host: no command "nosuch" (registered: echo, fail, errorf, chatty, panelcmd)\n');
    await expectShutDown('cmdfail');
  });
});

describe('zut-host tool', () => {
  it('prints the tool_result as JSON, exit 0', async () => {
    const dir = fixture(path.join(tmp, 'dev'), 'tl');
    const r = await run(['tool', '--ext', dir, 'add', '{"a":2,"b":3}']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ ext: 'tl', content: [{ type: 'text', text: '5' }], isError: false });
    await expectShutDown('tl');
  });

  it('exits 1 on an error result', async () => {
    const dir = fixture(path.join(tmp, 'dev'), 'tlerr');
    const r = await run(['tool', '--ext', dir, 'broken']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ ext: 'tlerr', isError: true, content: [{ type: 'text', text: 'bad' }] });
  });

  it('exits 1 on a timeout and still shuts the extension down', async () => {
    const dir = fixture(path.join(tmp, 'dev'), 'tlslow');
    const r = await run(['tool', '--ext', dir, '--timeout', '300', 'slow', '{}']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^zut-host: timeout: /);
    await expectShutDown('tlslow');
  });
});

describe('zut-host command: errors, notes, panels', () => {
  it('exits 1 on a response with a non-empty error whatever the action (zut\'s Go SDK Errorf: noop + error)', async () => {
    const dir = fixture(path.join(tmp, 'dev'), 'errf');
    const r = await run(['command', '-e', dir, 'errorf']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ action: 'noop', error: 'bad input' });
    expect(r.stderr).toContain('zut-host: /errorf: bad input\n');
  });

  it('prints notify and status lines to stderr as they arrive; -q silences them', async () => {
    const dir = fixture(path.join(tmp, 'dev'), 'chat1');
    const r = await run(['command', '-e', dir, 'chatty']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('[chat1] notify warn: careful\n[chat1] status phase: working\n');
    const q = await run(['command', '-e', dir, '-q', 'chatty']);
    expect(q.code).toBe(0);
    expect(q.stderr).toBe('');
    expect(JSON.parse(q.stdout)).toMatchObject({ display: 'done' });
  });

  it('a command whose response opens a panel: --keys answers it (panel lines on stderr), no --keys fails naming the panel and flag', async () => {
    const dir = fixture(path.join(tmp, 'dev'), 'pc');
    const r = await run(['command', '-e', dir, '--keys', 'x', 'panelcmd']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('[pc] panel cmdpanel opened: Pick\n  | a\n  | b\n[pc] panel cmdpanel render: Pick\n  | picked x\n[pc] panel cmdpanel closed\n');
    const n = await run(['command', '-e', dir, 'panelcmd']);
    expect(n.code).toBe(1);
    expect(n.stderr).toContain('zut-host: extension pc opened panel "cmdpanel" (Pick), which waits for keys: pass them with --keys');
    expect(n.stderr).toContain('--keys-file FILE');
    await expectShutDown('pc');
  });
});

describe('zut-host tool: panels', () => {
  it('a tool that opens a panel fails at once without --keys, naming the panel and the flag', async () => {
    const dir = fixture(path.join(tmp, 'dev'), 'ap');
    const started = Date.now();
    const r = await run(['tool', '-e', dir, 'approve']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('[ap] panel approve-1 opened: Approve?\n  | Run it?\n  -- y yes - n no\n');
    expect(r.stderr).toContain('zut-host: extension ap opened panel "approve-1" (Approve?), which waits for keys: pass them with --keys');
    // "At once": long before the 60 s reply timeout.
    expect(Date.now() - started).toBeLessThan(20_000);
    await expectShutDown('ap');
  });

  it('an interactive tool is refused headless without --keys (naming the flag), and runs with them', async () => {
    const dir = fixture(path.join(tmp, 'dev'), 'ask');
    const r = await run(['tool', '-e', dir, 'asks']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('zut-host: tool asks is interactive (it waits for a person in a panel): pass the answers with --keys');
    expect(r.stderr).not.toContain('panel approve-1 opened');
    const y = await run(['tool', '-e', dir, '--keys', 'y', 'asks']);
    expect(y.code).toBe(0);
    expect(JSON.parse(y.stdout)).toMatchObject({ content: [{ type: 'text', text: 'approved' }], isError: false });
  });

  it('--keys and --keys-file answer the panel; the rendered lines go to stderr; the result decides the exit code', async () => {
    const dir = fixture(path.join(tmp, 'dev'), 'ap2');
    const y = await run(['tool', '-e', dir, '--keys', 'y', 'approve']);
    expect(y.code).toBe(0);
    expect(JSON.parse(y.stdout)).toMatchObject({ content: [{ type: 'text', text: 'approved' }], isError: false });
    expect(y.stderr).toContain('[ap2] panel approve-1 render: Approve?\n  | approved\n');
    const keysFile = path.join(tmp, 'keys.txt');
    await fs.writeFile(keysFile, 'n\n');
    const n = await run(['tool', '-e', dir, '--keys-file', keysFile, 'approve']);
    expect(n.code).toBe(1);
    expect(JSON.parse(n.stdout)).toMatchObject({ content: [{ type: 'text', text: 'denied' }], isError: true });
    const bad = await run(['tool', '-e', dir, '--keys', '<bogus>', 'approve']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^zut-host: unknown key <bogus> in --keys/);
  });
});

describe('zut-host trace', () => {
  it('runs only the --ext extension and prints every frame both ways, stderr and the shutdown', async () => {
    const project = path.join(tmp, 'traceproj');
    fixture(path.join(project, '.zut', 'extensions'), 'other');
    const dir = fixture(path.join(tmp, 'dev'), 'tr');
    const r = await run(['trace', '--ext', dir, '--cwd', project, 'command', 'echo', 'hi']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^<- \{"type":"hello","protocol_version":2,"name":"tr"/);
    expect(lines[1]).toMatch(/^-> \{"type":"hello_ack","protocol_version":2,/);
    expect(r.stdout).toContain(`"cwd":${JSON.stringify(project)}`);
    expect(r.stdout).toContain(`stderr: started in ${project}\n`);
    expect(r.stdout).toMatch(/^-> \{"type":"command_invoked","id":"[^"]+","name":"echo","args":"hi"\}$/m);
    expect(r.stdout).toMatch(/^<- \{"type":"command_response","id":"[^"]+","action":"display","display":"echo:hi"\}$/m);
    expect(r.stdout).toMatch(/^-> \{"type":"shutdown"\}$/m);
    expect(r.stdout).toMatch(/^<- \{"type":"shutdown_ack"\}$/m);
    expect(r.stdout).not.toContain('"name":"other"');
    expect((await run(['trace', 'command', 'x'])).code).toBe(2);
  });

  it('trace tool goes through the guarded path: the guard sees the call before the extension runs it', async () => {
    const dir = fixture(path.join(tmp, 'dev'), 'trtool');
    const r = await run(['trace', '--ext', dir, 'tool', 'add', '{"a":2,"b":3}']);
    expect(r.code).toBe(0);
    const intercept = r.stdout.search(/^-> \{"type":"event_intercept","id":"[^"]+","event":"tool_call"/m);
    const call = r.stdout.search(/^-> \{"type":"tool_call","id":"[^"]+","name":"add"/m);
    expect(intercept).toBeGreaterThan(-1);
    expect(call).toBeGreaterThan(intercept);
    expect(r.stdout).toMatch(/^<- \{"type":"tool_result","id":"[^"]+","content":\[\{"type":"text","text":"5"\}\]\}$/m);
    // Headless: an interactive tool is refused (no panel answers), as by `zut-host tool`.
    expect((await run(['trace', '--ext', dir, 'tool', 'asks'])).code).toBe(1);
  });
});

describe('zut-host new (Python) + doctor', () => {
  it('writes a working Python extension; doctor shows it running with its command and tool; an edit changes its behaviour', async () => {
    const project = path.join(tmp, 'newproj');
    await fs.mkdir(project, { recursive: true });
    const made = await run(['new', '--lang', 'python', 'hello-py'], project);
    expect(made.code).toBe(0);
    const dir = path.join(project, '.zut', 'extensions', 'hello-py');
    expect(made.stdout).toContain(`created ${dir}\n  extension.json\n  main.py\n`);
    expect(made.stdout).toContain(`zut-host command --ext .zut/extensions/hello-py hello-py Ada`);
    const doc = await run(['doctor', '--cwd', project, '--allow-project', '--json']);
    expect(doc.code).toBe(0);
    expect(JSON.parse(doc.stdout).extensions).toEqual([
      expect.objectContaining({
        name: 'hello-py',
        scope: 'project',
        status: 'ok',
        state: 'running',
        commands: [{ name: 'hello-py', description: 'Say hello (try: /hello-py Ada)', active: true }],
        tools: [expect.objectContaining({ name: 'hello_py_greet', description: 'Greet someone by name', active: true })],
      }),
    ]);
    const before = await run(['command', '--cwd', project, '--allow-project', 'hello-py', 'Ada']);
    expect(JSON.parse(before.stdout)).toMatchObject({ action: 'display', display: 'Hello from hello-py: Ada' });
    const main = path.join(dir, 'main.py');
    await fs.writeFile(main, (await fs.readFile(main, 'utf8')).replace('f"Hello from hello-py:', 'f"Howdy from hello-py:'));
    const after = await run(['command', '--cwd', project, '--allow-project', 'hello-py', 'Ada']);
    expect(JSON.parse(after.stdout)).toMatchObject({ action: 'display', display: 'Howdy from hello-py: Ada' });
    const again = await run(['new', '--lang', 'python', 'hello-py'], project);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`zut-host: ${dir} already exists: pick another name\n`);
    expect((await run(['new', '--lang', 'cobol', 'x'], project)).code).toBe(2);
  });
});

describe('zut-host usage', () => {
  it('exits 2 on usage errors, 0 on --help and --version', async () => {
    expect((await run([])).code).toBe(2);
    const bad = await run(['tool', 'x', 'not json']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^zut-host: tool arguments are not valid JSON/);
    expect((await run(['tool', 'x', '[1]'])).stderr).toMatch(/^zut-host: tool arguments must be a JSON object/);
    expect((await run(['frobnicate'])).stderr).toMatch(/^zut-host: unknown subcommand "frobnicate"/);
    expect((await run(['doctor', '--bogus'])).code).toBe(2);
    expect((await run(['command', '--json', 'x'])).code).toBe(2);
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('zut-host doctor');
    expect((await run(['--version'])).stdout).toMatch(/^zut-host \d+\.\d+\.\d+\n$/);
  });
});
