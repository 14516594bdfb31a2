/**
 * `zut-host ext <verb>` end to end: the real CLI bundle against real fixture extensions (a Node one, a Go one built
 * by `--build=go`), real git repositories (`file://` URLs of local bare repositories) and the freedesktop trash,
 * each run with its own HOME, $ZUT_HOME and TMPDIR so nothing of the machine takes part and leftovers are visible.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { builtCli } from '../helpers/built';
import { writeNodeExtension } from '../helpers/fakeExtension';
import { isolatedEnv, runProcess, type Run } from '../helpers/runProcess';
import { cleanupTemps, tempDir } from '../helpers/temp';

let root: string;
let cli: string;
/** Per test: HOME, the project (cwd), $ZUT_HOME, TMPDIR, the sources. */
let t: { home: string; project: string; zutHome: string; tmpdir: string; src: string };

/** A zut extension in Node: `say ARGS` answers `said ARGS` and writes `said ARGS` to stderr (the log). */
const NODE_EXT = String.raw`
const emit = (o) => process.stdout.write(JSON.stringify(o) + '\n');
const name = process.argv[2];
emit({ type: 'hello', protocol_version: 2, name, version: '1.0.0', capabilities: ['commands'] });
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.type === 'hello_ack') {
    process.stderr.write('started ' + name + '\n');
    emit({ type: 'register_command', name: 'say', description: 'say it' });
    emit({ type: 'ready' });
  } else if (m.type === 'command_invoked') {
    process.stderr.write('said ' + m.args + '\x1b[31m\n');
    emit({ type: 'command_response', id: m.id, action: 'display', display: 'said ' + m.args });
  } else if (m.type === 'shutdown') {
    emit({ type: 'shutdown_ack' });
    process.exit(0);
  }
});
`;

async function writeTree(dir: string, files: Record<string, string | [string, number]>): Promise<string> {
  for (const [rel, v] of Object.entries(files)) {
    const [content, mode] = typeof v === 'string' ? [v, 0o644] : v;
    await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fs.writeFile(path.join(dir, rel), content, { mode });
  }
  return dir;
}

/** The NODE_EXT extension folder `<root>/<name>` (manifest extras merged in); returns its dir. */
function nodeExt(root: string, name: string, extra: object = {}): string {
  return writeNodeExtension(root, name, NODE_EXT, { args: [name], manifest: { version: '1.0.0', description: `the ${name} extension`, ...extra } });
}

function env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return isolatedEnv(t.home, t.zutHome, { TMPDIR: t.tmpdir, XDG_DATA_HOME: '', XDG_STATE_HOME: '', ...extra });
}

function run(args: string[], extra: NodeJS.ProcessEnv = {}): Promise<Run> {
  return runProcess(process.execPath, [cli, ...args], { cwd: t.project, env: env(extra) });
}

/** Runs an installed extension's command through `zut-host command`; its `display`. */
async function display(name: string, args: string): Promise<unknown> {
  const r = await run(['command', '-q', name, args]);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { display?: unknown }).display;
}

const ls = async (dir: string): Promise<string[]> => (await fs.readdir(dir).catch(() => [] as string[])).sort();
const globalDir = () => path.join(t.zutHome, 'extensions');

/** A bare repository holding `files` in one commit; returns its file:// URL. */
async function bareRepo(name: string, files: Record<string, string | [string, number]>): Promise<string> {
  const work = await writeTree(path.join(root, `${name}-${Date.now()}-work`), files);
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'pipe', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: t.home } });
  git(work, 'init', '-q');
  git(work, 'add', '-A');
  git(work, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'init');
  const bare = path.join(root, `${name}-${Date.now()}.git`);
  git(root, 'clone', '-q', '--bare', work, bare);
  return pathToFileURL(bare).href;
}

beforeAll(() => {
  root = tempDir('zut-ext-cli-');
  cli = builtCli();
});
afterAll(cleanupTemps);
beforeEach(async (ctx) => {
  const base = path.join(root, ctx.task.id);
  t = { home: path.join(base, 'home'), project: path.join(base, 'project'), zutHome: path.join(base, 'zut'), tmpdir: path.join(base, 'tmp'), src: path.join(base, 'src') };
  for (const d of Object.values(t)) await fs.mkdir(d, { recursive: true });
});

describe('zut-host ext install', () => {
  it('copies a folder into $ZUT_HOME/extensions, printing what it will run and its files first; the extension then runs', async () => {
    const src = nodeExt(t.src, 'greeter');
    const r = await run(['ext', 'install', src]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const dest = path.join(globalDir(), 'greeter');
    const lines = r.stdout.split('\n');
    expect(lines.slice(0, 5)).toEqual(['greeter 1.0.0', '  description: the greeter extension', `  from:  ${src}`, `  into:  ${dest}`, '  runs:  node main.js greeter   (node found on PATH)']);
    expect(lines[5]).toMatch(/^ {2}files: 2 \(/);
    expect(lines[6]).toMatch(/^ {6}extension\.json +\d+ B$/);
    expect(lines[7]).toMatch(/^ {6}main\.js +\d+ B$/);
    expect(lines.slice(8)).toEqual([`installed greeter into ${dest}`, '']);
    expect(await ls(dest)).toEqual(['extension.json', 'main.js']);
    expect(await display('say', 'hi')).toBe('said hi');
  });

  it('--dry-run prints the plan and installs nothing; --dir installs elsewhere', async () => {
    const src = nodeExt(t.src, 'dry');
    const r = await run(['ext', 'install', '--dry-run', src]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^dry 1\.0\.0\n[\s\S]*\ndry run: nothing installed\n$/);
    expect(await ls(globalDir())).toEqual([]);
    const other = path.join(t.project, '.zut', 'extensions');
    expect((await run(['ext', 'install', '--dir', other, src])).code).toBe(0);
    expect(await ls(other)).toEqual(['dry']);
  });

  it('refuses a folder with a link that leaves it, naming the link; nothing is left behind (exit 1)', async () => {
    const src = nodeExt(t.src, 'linky');
    await fs.writeFile(path.join(root, 'outside.js'), '');
    await fs.symlink(path.join(root, 'outside.js'), path.join(src, 'lib.js'));
    const r = await run(['ext', 'install', src]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`zut-host: install: ${src}: refused: lib.js is a symbolic link to ${path.join(root, 'outside.js')}, outside the extension folder (install copies files; put what it needs inside the folder)\n`);
    expect(await ls(globalDir())).toEqual([]);
  });

  it('refuses an existing extension, a missing folder, and bad usage', async () => {
    const src = nodeExt(t.src, 'twice');
    expect((await run(['ext', 'install', src])).code).toBe(0);
    const again = await run(['ext', 'install', src]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`already exists; remove it first to reinstall "twice"`);
    const missing = await run(['ext', 'install', path.join(t.src, 'nope')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`zut-host: install: ${path.join(t.src, 'nope')} is not a folder (and not a git URL)\n`);
    for (const args of [['ext', 'install'], ['ext', 'install', '--build=rust', src], ['ext', 'install', '--json', src], ['ext', 'install', '--build=go', 'https://example.invalid/x.git'], ['ext']]) {
      const u = await run(args);
      expect(u.code, args.join(' ')).toBe(2);
      expect(u.stderr, args.join(' ')).toContain('zut-host ext install [--dir DIR]');
    }
  });

  it('clones a file:// URL of a bare repository shallowly and installs it without its .git; nothing left in TMPDIR', async () => {
    const url = await bareRepo('cloned', { 'extension.json': JSON.stringify({ name: 'cloned', exec: 'node', args: ['main.js', 'cloned'] }), 'main.js': NODE_EXT });
    const r = await run(['ext', 'install', url]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`\n  from:  ${url}\n`);
    expect(r.stdout).toContain('  runs:  node main.js cloned   (node found on PATH)\n');
    expect(await ls(path.join(globalDir(), 'cloned'))).toEqual(['extension.json', 'main.js']);
    expect(await ls(t.tmpdir)).toEqual([]);
    expect(await display('say', 'cloned')).toBe('said cloned');
  });

  it('a bad URL and a repository without extension.json fail (exit 1) and leave nothing behind', async () => {
    const bad = await run(['ext', 'install', pathToFileURL(path.join(root, 'no-such.git')).href]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^zut-host: install: file:\/\/.*no-such\.git: git clone failed \(exit status 128\):\n.*does not appear to be a git repository/);
    const url = await bareRepo('nomanifest', { 'README.md': '# not an extension' });
    const none = await run(['ext', 'install', url]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(new RegExp(`^zut-host: install: ${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: read manifest: .*ENOENT`));
    expect(await ls(globalDir())).toEqual([]);
    expect(await ls(t.tmpdir)).toEqual([]);
  });

  it('a repository whose file links outside the clone is refused like a folder', async () => {
    const url = await bareRepo('escaping', { 'extension.json': JSON.stringify({ name: 'escaping', exec: './run.sh' }) });
    // Commit a link to /etc/passwd: git stores links as links.
    const work = path.join(root, 'escaping-link-work');
    execFileSync('git', ['clone', '-q', url, work]);
    await fs.symlink('/etc/passwd', path.join(work, 'run.sh'));
    const git = (...args: string[]) => execFileSync('git', args, { cwd: work, stdio: 'pipe' });
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'link');
    git('push', '-q', 'origin', 'HEAD');
    const r = await run(['ext', 'install', url]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`zut-host: install: ${url}: refused: run.sh is a symbolic link to /etc/passwd, outside the extension folder (install copies files; put what it needs inside the folder)\n`);
    expect(await ls(globalDir())).toEqual([]);
    expect(await ls(t.tmpdir)).toEqual([]);
  });
});

const GO_MAIN = `package main

import (
	"bufio"
	"encoding/json"
	"os"
)

func emit(v map[string]any) {
	b, _ := json.Marshal(v)
	os.Stdout.Write(append(b, '\\n'))
}

func main() {
	emit(map[string]any{"type": "hello", "protocol_version": 2, "name": "gohello", "version": "0.1.0", "capabilities": []string{"commands"}})
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		var m map[string]any
		if json.Unmarshal(in.Bytes(), &m) != nil {
			continue
		}
		switch m["type"] {
		case "hello_ack":
			emit(map[string]any{"type": "register_command", "name": "gohi"})
			emit(map[string]any{"type": "ready"})
		case "command_invoked":
			emit(map[string]any{"type": "command_response", "id": m["id"], "action": "display", "display": "go says hi " + m["args"].(string)})
		case "shutdown":
			emit(map[string]any{"type": "shutdown_ack"})
			return
		}
	}
}
`;

/** A Go extension's source folder; with `vcs`, a git repository whose `.git/config` runs `touch <marker>` as its fsmonitor. */
async function goSource(name: string, vcs?: string): Promise<string> {
  const src = await writeTree(path.join(t.src, name), {
    'extension.json': JSON.stringify({ name: 'gohello', exec: './gohello', language: 'go' }),
    'go.mod': 'module example.com/gohello\n\ngo 1.19\n',
    'main.go': GO_MAIN,
  });
  if (vcs) {
    execFileSync('git', ['init', '-q'], { cwd: src, env: { ...process.env, HOME: t.home } });
    await fs.appendFile(path.join(src, '.git', 'config'), `[core]\n\tfsmonitor = "touch ${vcs}"\n`);
  }
  return src;
}

/**
 * A `go` first on PATH that writes its working directory, GOTOOLCHAIN, GOWORK and arguments to `log`, then runs the
 * real go (or, with no real go, exits 1): shows whether, where and how go ran.
 */
async function goSpy(log: string): Promise<NodeJS.ProcessEnv> {
  const bin = path.join(t.home, 'spy-bin');
  const real = spawnSync('sh', ['-c', 'command -v go']).stdout.toString().trim();
  await writeTree(bin, {
    go: [`#!/bin/sh\nprintf '%s\\n' "cwd=$PWD" "GOTOOLCHAIN=$GOTOOLCHAIN" "GOWORK=$GOWORK" "args=$*" >> '${log}'\n${real ? `exec '${real}' "$@"` : 'exit 1'}\n`, 0o755],
  });
  return { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, GOCACHE: path.join(os.tmpdir(), 'zut-test-gocache'), GOPROXY: 'off', GOFLAGS: '' };
}

const GO_BUILD_LINE = '  build: go build -trimpath -buildvcs=false -o ./gohello .   (in the staged copy; GOTOOLCHAIN=local GOWORK=off), once you accept\n';

describe('zut-host ext install --build=go', () => {
  it('--yes: builds in the staged copy (-buildvcs=false, GOTOOLCHAIN=local), never running the source folder\'s git configuration; the binary runs', async () => {
    const marker = path.join(t.home, 'fsmonitor-ran');
    const src = await goSource('gohello', marker);
    const log = path.join(t.home, 'go.log');
    const goEnv = await goSpy(log);
    const plain = await run(['ext', 'install', src], goEnv);
    expect(plain.code, 'without --build=go nothing is built').toBe(1);
    expect(plain.stderr).toContain('exec "./gohello" not found in');
    const r = await run(['ext', 'install', '--build=go', '--yes', src], goEnv);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`  runs:  ./gohello   (in the extension folder)\n${GO_BUILD_LINE}`);
    expect(r.stdout).toMatch(/\nbuilt: gohello \(\d+\.\d MiB\)\ninstalled gohello into /);
    const ran = (await fs.readFile(log, 'utf8')).split('\n');
    expect(ran[0]).toMatch(new RegExp(`^cwd=${globalDir().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/\\.staging-[0-9a-f]+$`));
    expect(ran.slice(1, 4)).toEqual(['GOTOOLCHAIN=local', 'GOWORK=off', 'args=build -trimpath -buildvcs=false -o ./gohello .']);
    await expect(fs.access(marker), "the source's .git/config ran").rejects.toThrow();
    expect(await ls(src)).toEqual(['.git', 'extension.json', 'go.mod', 'main.go']);
    const bin = path.join(globalDir(), 'gohello', 'gohello');
    expect((await fs.stat(bin)).mode & 0o111).not.toBe(0);
    expect(await ls(path.join(globalDir(), 'gohello'))).toEqual(['extension.json', 'go.mod', 'gohello', 'main.go']);
    // -trimpath: no folder's path is in the binary.
    expect((await fs.readFile(bin)).includes(Buffer.from(src))).toBe(false);
    expect(await display('gohi', 'there')).toBe('go says hi there');
    expect(await ls(t.tmpdir)).toEqual([]);
  }, 120_000);

  it('--dry-run runs nothing (no go, no git of the source): the plan says what would be built', async () => {
    const marker = path.join(t.home, 'fsmonitor-ran');
    const src = await goSource('godry', marker);
    const log = path.join(t.home, 'go.log');
    const r = await run(['ext', 'install', '--build=go', '--dry-run', src], await goSpy(log));
    await expect(fs.access(marker), "the source's .git/config ran").rejects.toThrow();
    await expect(fs.access(log), 'go ran').rejects.toThrow();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(GO_BUILD_LINE);
    expect(r.stdout).not.toContain('built:');
    expect(r.stdout.endsWith('dry run: nothing built, nothing installed\n')).toBe(true);
    expect(await ls(globalDir())).toEqual([]);
  });

  it('without --yes and no terminal to ask, the plan is shown and nothing is built or installed', async () => {
    const src = await goSource('gonoyes');
    const log = path.join(t.home, 'go.log');
    const r = await run(['ext', 'install', '--build=go', src], await goSpy(log));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(GO_BUILD_LINE);
    expect(r.stderr).toBe('zut-host: not built, nothing installed: the plan was not accepted (not on a terminal: pass --yes to accept it)\n');
    await expect(fs.access(log), 'go ran').rejects.toThrow();
    expect(await ls(globalDir())).toEqual([]);
  });

  it('refuses a launcher exec (nothing to write the binary to), and a failing build shows its output and leaves nothing', async () => {
    const launcher = await writeTree(path.join(t.src, 'gorun'), { 'extension.json': JSON.stringify({ name: 'gorun', exec: 'go', args: ['run', '.'] }) });
    const r = await run(['ext', 'install', '--build=go', '--yes', launcher]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--build=go needs a relative exec (like "./gorun") in extension.json to write the binary to; "go" is a launcher resolved from PATH');
    const broken = await writeTree(path.join(t.src, 'gobroken'), {
      'extension.json': JSON.stringify({ name: 'gobroken', exec: './gobroken' }),
      'go.mod': 'module example.com/gobroken\n\ngo 1.19\n',
      'main.go': 'package main\n\nfunc main() { undefined() }\n',
    });
    const b = await run(['ext', 'install', '--build=go', '--yes', broken], { GOCACHE: path.join(os.tmpdir(), 'zut-test-gocache'), GOPROXY: 'off' });
    expect(b.code).toBe(1);
    // go's own output as it came, then the error naming the build.
    expect(b.stderr).toMatch(/^# example\.com\/gobroken\n[\s\S]*undefined: undefined\n[\s\S]*zut-host: install: .*gobroken: go build -trimpath failed \(exit status \d+\):\n[\s\S]*undefined: undefined/);
    expect(await ls(globalDir())).toEqual([]);
  }, 120_000);
});

describe("zut-host ext install: git runs only the schemes we accept, whatever the user's git configuration allows", () => {
  it('an ext:: source runs nothing even when the user allowed ext (config and GIT_ALLOW_PROTOCOL)', async () => {
    const marker = path.join(t.home, 'ext-ran');
    const config = path.join(t.home, 'gitconfig');
    await fs.writeFile(config, '[protocol]\n\tallow = always\n[protocol "ext"]\n\tallow = always\n');
    for (const extra of [{ GIT_CONFIG_GLOBAL: config }, { GIT_ALLOW_PROTOCOL: 'ext:file' }]) {
      const r = await run(['ext', 'install', `ext::sh -c touch% ${marker}`], extra);
      await expect(fs.access(marker), `ext:: ran with ${JSON.stringify(extra)}`).rejects.toThrow();
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/transport 'ext' not allowed/);
    }
    // The schemes we accept still work under that configuration.
    const url = await bareRepo('allowed', { 'extension.json': JSON.stringify({ name: 'allowed', exec: 'node', args: ['main.js', 'allowed'] }), 'main.js': NODE_EXT });
    expect((await run(['ext', 'install', url], { GIT_CONFIG_GLOBAL: config })).code).toBe(0);
  });
});

describe('zut-host ext list / enable / disable / remove', () => {
  it('lists project and global extensions with version, scope, state and description (text and --json)', async () => {
    nodeExt(path.join(t.project, '.zut', 'extensions'), 'proj');
    nodeExt(globalDir(), 'glob', { enabled: false });
    nodeExt(globalDir(), 'proj', { version: '0.9.0', description: 'old\u001b[2J copy' });
    await writeTree(path.join(globalDir(), 'broken'), { 'extension.json': '{' });
    const r = await run(['ext', 'list']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')).toEqual([
      'NAME    VERSION  SCOPE    STATE     DESCRIPTION',
      'proj    1.0.0    project  enabled   the proj extension',
      expect.stringMatching(/^broken  -        global   error     parse manifest: .*extension\.json: /),
      'glob    1.0.0    global   disabled  the glob extension',
      `proj    0.9.0    global   shadowed  shadowed by ${path.join(t.project, '.zut', 'extensions', 'proj')}`,
      '',
    ]);
    const j = await run(['ext', 'list', '--json']);
    const rows = JSON.parse(j.stdout).extensions;
    expect(rows.map((e: { name: string; scope: string; state: string }) => `${e.name}/${e.scope}/${e.state}`)).toEqual([
      'proj/project/enabled',
      'broken/global/error',
      'glob/global/disabled',
      'proj/global/shadowed',
    ]);
    expect(rows[3]).toMatchObject({ version: '0.9.0', description: 'old\u001b[2J copy', logPath: path.join(t.zutHome, 'logs', 'ext-proj.log') });
    // Only the text form is for a terminal: escape sequences are shown, not sent.
    await fs.rm(path.join(t.project, '.zut'), { recursive: true });
    expect((await run(['ext', 'list'])).stdout).toContain('old\\x1b[2J copy');
    const none = await run(['ext', 'list', '--cwd', path.join(t.project, 'missing')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(`--cwd ${path.join(t.project, 'missing')} is not a directory`);
  });

  it('disable and enable rewrite "enabled" in extension.json (what the Extensions view does), and the host obeys', async () => {
    const dir = nodeExt(globalDir(), 'toggle');
    const d = await run(['ext', 'disable', 'toggle']);
    expect(d.stdout).toBe(`disabled toggle (${path.join(dir, 'extension.json')})\n`);
    expect(d.code).toBe(0);
    expect(JSON.parse(await fs.readFile(path.join(dir, 'extension.json'), 'utf8')).enabled).toBe(false);
    const doc = JSON.parse((await run(['doctor', '--json'])).stdout);
    expect(doc.extensions).toEqual([expect.objectContaining({ name: 'toggle', status: 'disabled' })]);
    expect((await run(['ext', 'disable', 'toggle'])).stdout).toBe(`toggle is already disabled (${dir})\n`);
    const e = await run(['ext', 'enable', 'TOGGLE']);
    expect(e.stdout).toBe(`enabled toggle (${path.join(dir, 'extension.json')})\n`);
    expect(JSON.parse(await fs.readFile(path.join(dir, 'extension.json'), 'utf8')).enabled).toBe(true);
    expect(await display('say', 'back')).toBe('said back');
    const missing = await run(['ext', 'enable', 'nosuch']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('zut-host: no extension named "nosuch" (zut-host ext list shows what is installed)\n');
  });

  it('remove moves the folder to the freedesktop trash with a .trashinfo naming where it was', async () => {
    const dir = nodeExt(globalDir(), 'gone');
    await fs.writeFile(path.join(dir, 'state.json'), '{"kept":true}');
    const r = await run(['ext', 'remove', 'gone']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`removed gone: moved ${dir} to the trash\n`);
    const trash = path.join(t.home, '.local', 'share', 'Trash');
    expect(await ls(path.join(trash, 'files', 'gone'))).toEqual(['extension.json', 'main.js', 'state.json']);
    const info = await fs.readFile(path.join(trash, 'info', 'gone.trashinfo'), 'utf8');
    expect(info).toMatch(new RegExp(`^\\[Trash Info\\]\\nPath=${dir}\\nDeletionDate=\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\n$`));
    expect(await ls(globalDir())).toEqual([]);
    // A second one of the same name does not overwrite the first in the trash.
    nodeExt(globalDir(), 'gone');
    expect((await run(['ext', 'remove', 'gone'])).code).toBe(0);
    expect(await ls(path.join(trash, 'files'))).toEqual(['gone', 'gone.2']);
    const again = await run(['ext', 'remove', 'gone']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('no extension named "gone"');
  });
});

describe('zut-host ext logs', () => {
  it('prints the stderr log the host wrote (control characters escaped); exit 1 before there is one', async () => {
    nodeExt(globalDir(), 'talker');
    const before = await run(['ext', 'logs', 'talker']);
    expect(before.code).toBe(1);
    expect(before.stderr).toBe(`zut-host: talker has not written a log yet (${path.join(t.zutHome, 'logs', 'ext-talker.log')})\n`);
    expect((await run(['command', '-q', 'say', 'one'])).code).toBe(0);
    const r = await run(['ext', 'logs', 'talker']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('started talker\nsaid one\\x1b[31m\n');
    expect(r.stdout).not.toContain('\u001b');
  });

  it('-f follows the live log: lines an extension writes later appear, and Ctrl+C ends it with 130', async () => {
    nodeExt(globalDir(), 'live');
    const follower = spawn(process.execPath, [cli, 'ext', 'logs', '-f', 'live'], { cwd: t.project, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    follower.stdout.on('data', (d: Buffer) => (out += d.toString()));
    follower.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => follower.on('close', (code) => resolve(code)));
    const until = async (what: () => boolean, label: string): Promise<void> => {
      const end = Date.now() + 15_000;
      while (!what()) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${label}; stdout: ${out}; stderr: ${err}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    try {
      await until(() => err.includes('waiting for'), 'the follower to wait for the log');
      expect((await run(['command', '-q', 'say', 'first'])).code).toBe(0);
      await until(() => out.includes('said first'), 'the first line');
      expect((await run(['command', '-q', 'say', 'second'])).code).toBe(0);
      await until(() => out.includes('said second'), 'the second line');
      expect(out.indexOf('said first')).toBeLessThan(out.indexOf('said second'));
      // Truncated (a log rotated by hand): read again from its start.
      await fs.writeFile(path.join(t.zutHome, 'logs', 'ext-live.log'), 'fresh start\n');
      await until(() => out.includes('fresh start'), 'the truncated log');
    } finally {
      follower.kill('SIGINT');
    }
    expect(await exited).toBe(130);
  }, 60_000);
});
