/**
 * The headless CLI with a repository's own code and with impatient users, end to end (the real bundle, real
 * fixture processes): a project's zut, zot and e extensions start only with `--allow-project` or
 * `$ZUT_ALLOW_PROJECT=1` (doctor lists them as not started); a missing or non-directory `--cwd` is a usage error for
 * every verb; a second Ctrl+C during the stop kills every extension at once, leaving no process behind.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { alive, cleanupTemps, nodeExt, tempDir, until, zutHome } from '../helpers/hostFixtures';
import { builtCli } from '../helpers/built';
import { isolatedEnv, runProcess, type Run } from '../helpers/runProcess';

const cli = builtCli();
afterAll(cleanupTemps);

const HELD = 'not started: project extension (pass --allow-project)';

/** A project holding one extension of each ecosystem; each writes `<marks>/<name>.ran` as it starts. */
function clonedRepository() {
  const z = zutHome();
  const project = tempDir('zut-cloned-');
  const marks = tempDir('zut-marks-');
  const ran = (name: string) => path.join(marks, `${name}.ran`);
  nodeExt(path.join(project, '.zut', 'extensions'), { name: 'pzut', tools: [{ name: 'pzut_tool' }], grandchild: ran('pzut') });
  nodeExt(path.join(project, '.zot', 'extensions'), { name: 'pzot', tools: [{ name: 'pzot_tool' }], grandchild: ran('pzot') });
  const eDir = path.join(project, '.e', 'extensions');
  fs.mkdirSync(eDir, { recursive: true });
  fs.writeFileSync(path.join(eDir, 'pe.sh'), `#!/bin/sh\necho ran > '${ran('pe')}'\nexec sleep 30\n`, { mode: 0o755 });
  const run = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> =>
    runProcess(process.execPath, [cli, ...args], { cwd: project, env: isolatedEnv(z.home, z.home, env) });
  return { project, ran, run };
}

const ranAny = (ran: (n: string) => string) => ['pzut', 'pzot', 'pe'].filter((n) => fs.existsSync(ran(n)));

describe('a repository cannot run its code through zut-host', () => {
  it('doctor, command, tool: the project\'s zut, zot and e extensions are listed "not started" and none runs', async () => {
    const { project, ran, run } = clonedRepository();
    const r = await run(['doctor', '--cwd', project, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { extensions: Record<string, unknown>[] };
    expect(report.extensions.map((e) => [e.name, e.ecosystem ?? 'zut', e.scope, e.state, e.diagnostics])).toEqual([
      ['pzut', 'zut', 'project', 'blocked', [HELD]],
      ['pzot', 'zot', 'project', 'blocked', [HELD]],
      ['pe', 'e', 'project', 'blocked', [HELD]],
    ]);
    const text = await run(['doctor', '--cwd', project]);
    expect(text.stdout).toContain(`pzut 1.0.0 [project] warning\n  dir: ${path.join(project, '.zut', 'extensions', 'pzut')}\n  warning: ${HELD}\n`);
    const tool = await run(['tool', 'pzut_tool']); // --cwd defaults to the current directory: the same project
    expect(tool.code).toBe(1);
    expect(tool.stderr).toBe('zut-host: no tool "pzut_tool" (registered: none; 3 project extensions not started (pass --allow-project))\n');
    const command = await run(['command', '--cwd', project, 'anything']);
    expect(command.stderr).toContain('3 project extensions not started (pass --allow-project)');
    // Give a process that would have started time to leave its mark: none did.
    await new Promise((r) => setTimeout(r, 300));
    expect(ranAny(ran)).toEqual([]);
  });

  it('--allow-project (or $ZUT_ALLOW_PROJECT=1, for CI) starts them', async () => {
    const { project, ran, run } = clonedRepository();
    const r = await run(['doctor', '--cwd', project, '--allow-project', '--no-e', '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { extensions: Record<string, unknown>[] };
    expect(report.extensions.map((e) => [e.name, e.state, e.diagnostics])).toEqual([
      ['pzut', 'running', []],
      ['pzot', 'running', []],
    ]);
    expect(ranAny(ran)).toEqual(['pzut', 'pzot']);
    fs.rmSync(ran('pzut'));
    const relative = path.join('..', path.basename(project)); // a relative --cwd stays right once the CLI entered it
    const viaEnv = await run(['tool', '--cwd', relative, '--no-e', 'pzut_tool', '{"a":1}'], { ZUT_ALLOW_PROJECT: '1' });
    expect(viaEnv.code).toBe(0);
    expect(JSON.parse(viaEnv.stdout)).toMatchObject({ ext: 'pzut', isError: false });
    expect(fs.existsSync(ran('pzut'))).toBe(true);
    // Any other value is not an opt-in.
    const other = await run(['doctor', '--cwd', project, '--no-e', '--json'], { ZUT_ALLOW_PROJECT: 'no' });
    expect((JSON.parse(other.stdout) as { extensions: { state: string }[] }).extensions.map((e) => e.state)).toEqual(['blocked', 'blocked']);
  });
});

describe('--cwd must be a directory', () => {
  it('a missing or non-directory --cwd is a usage error naming the path (exit 2) for every verb', async () => {
    const { run } = clonedRepository();
    const dir = tempDir('zut-cwd-');
    const missing = path.join(dir, 'no-such-dir');
    const file = path.join(dir, 'a-file');
    fs.writeFileSync(file, 'x');
    const verbs = [['doctor'], ['mcp'], ['command', 'echo'], ['tool', 'add'], ['trace', '--ext', dir], ['new', '--lang', 'sh', 'x']];
    for (const verb of verbs) {
      for (const [cwd, why] of [[missing, 'no such directory'], [file, 'not a directory']] as const) {
        const r = await run([...verb, '--cwd', cwd]);
        expect({ verb: verb[0], code: r.code, first: r.stderr.split('\n')[0] }).toEqual({ verb: verb[0], code: 2, first: `zut-host: --cwd ${cwd}: ${why}` });
      }
    }
    expect(fs.existsSync(missing)).toBe(false); // `new` created nothing there
  });
});

describe('a second Ctrl+C', () => {
  it('during the stop SIGKILLs every extension (and what it spawned) at once, then exits 130: no orphan', async () => {
    const z = zutHome();
    const marks = tempDir('zut-marks-');
    const gfile = path.join(marks, 'grandchild.pid');
    // Ignores `shutdown` and stdin's end: the graceful stop would wait 2 s, then SIGTERM.
    const dir = nodeExt(tempDir('zut-stubborn-'), { name: 'stubborn', tools: [{ name: 'hang', mode: 'never' }], ignoreShutdown: true, grandchild: gfile });
    const child = spawn(process.execPath, [cli, 'tool', '--ext', dir, 'hang'], { env: isolatedEnv(z.home, z.home), stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.on('exit', (code, signal) => r({ code, signal })));
    const gpid = await until(() => fs.existsSync(gfile) && Number(fs.readFileSync(gfile, 'utf8')), 10_000, 'the grandchild pid');
    const stat = fs.readFileSync(`/proc/${gpid}/stat`, 'utf8');
    const pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]); // the extension: its parent
    await new Promise((r) => setTimeout(r, 500)); // the call is running
    try {
      child.kill('SIGINT');
      await new Promise((r) => setTimeout(r, 300)); // the graceful stop has begun (shutdown sent, ignored)
      const t0 = Date.now();
      child.kill('SIGINT');
      const end = await exited;
      const ms = Date.now() - t0;
      expect(end).toEqual({ code: 130, signal: null });
      expect(ms).toBeLessThan(1_500);
      await until(() => !alive(pid) && !alive(gpid), 2_000, 'the extension and its child gone');
      console.log(`[headless] second Ctrl+C: exited ${ms} ms after it, extension and grandchild killed`);
    } finally {
      for (const p of [pid, gpid]) if (alive(p)) process.kill(p, 'SIGKILL'); // the test leaves no orphan either way
    }
  }, 30_000);
});
