// Choosing the code-server the VS Code suites run on (issue 42, "the oldest VS Code it claims"): the version parameter
// of scripts/provision.mjs, and how test/vscode/lib/codeServer.mjs passes VS Code server flags to a code-server with
// `--vscode-option` (4.139.1) and to one without it (4.104.0: through test/vscode/lib/vscodeFlags.js, run here against
// a code-server-shaped entry.js/cli.js pair that prints what it parsed).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTemps, tempDir } from '../helpers/temp';

type Tools = { codeServer: string; node: string };
let codeServerVersion: (v?: string) => string;
let CODE_SERVER_VERSION: string;
let serverCommand: (tools: Tools, args: string[], flags: string[]) => [string, string[]];
beforeAll(async () => {
  ({ codeServerVersion, CODE_SERVER_VERSION } = await import('../../scripts/provision.mjs'));
  // codeServer.mjs is // @ts-check JavaScript without declarations: its one function used here is typed above.
  ({ serverCommand } = (await import('../../test/vscode/lib/codeServer.mjs' as string)) as { serverCommand: typeof serverCommand });
});
afterAll(cleanupTemps);

/** A code-server-shaped install: node_modules/.bin/code-server → code-server/out/node/entry.js beside cli.js. */
function fakeCodeServer(withVscodeOption: boolean): Tools {
  const root = tempDir('fake-code-server-');
  const out = path.join(root, 'node_modules', 'code-server', 'out', 'node');
  fs.mkdirSync(out, { recursive: true });
  const options = withVscodeOption ? '{ "bind-addr": {}, "vscode-option": {} }' : '{ "bind-addr": {} }';
  fs.writeFileSync(path.join(out, 'cli.js'), `exports.options = ${options};\n`);
  // Like code-server's parse(): an option not in the table is refused; prints the parsed options as JSON.
  fs.writeFileSync(path.join(out, 'entry.js'), [
    "const { options } = require('./cli');",
    'const parsed = {};',
    'for (const a of process.argv.slice(2).filter((x) => x.startsWith("--"))) {',
    '  const k = a.slice(2); if (!options[k]) { console.error(`Unknown option ${a}`); process.exit(1); } parsed[k] = true; }',
    'console.log(JSON.stringify(parsed));',
  ].join('\n'));
  fs.mkdirSync(path.join(root, 'node_modules', '.bin'));
  const bin = path.join(root, 'node_modules', '.bin', 'code-server');
  fs.symlinkSync(path.join(out, 'entry.js'), bin);
  return { codeServer: bin, node: process.execPath };
}

describe('the code-server version', () => {
  it('defaults to CODE_SERVER_VERSION, takes an exact x.y.z, refuses anything else', () => {
    expect(codeServerVersion('')).toBe(CODE_SERVER_VERSION);
    expect(codeServerVersion('4.104.0')).toBe('4.104.0');
    expect(() => codeServerVersion('latest')).toThrow(/x\.y\.z/);
    expect(() => codeServerVersion('4.104')).toThrow(/x\.y\.z/);
  });
});

describe('VS Code server flags', () => {
  it('a code-server with --vscode-option gets them as --vscode-option FLAG', () => {
    const tools = fakeCodeServer(true);
    expect(serverCommand(tools, ['--bind-addr', 'x'], ['enable-smoke-test-driver']))
      .toEqual([tools.codeServer, ['--bind-addr', 'x', '--vscode-option', 'enable-smoke-test-driver']]);
    expect(serverCommand(tools, ['--bind-addr'], [])).toEqual([tools.codeServer, ['--bind-addr']]);
  });

  it('a code-server without it runs through vscodeFlags.js, which makes its CLI accept the flag', () => {
    const tools = fakeCodeServer(false);
    // The bare CLI refuses the flag, as code-server 4.104.0's does.
    expect(() => execFileSync(process.execPath, [tools.codeServer, '--enable-smoke-test-driver'], { stdio: 'pipe' })).toThrow(/Unknown option --enable-smoke-test-driver/);
    const [cmd, args] = serverCommand(tools, ['--bind-addr'], ['enable-smoke-test-driver']);
    expect(cmd).toBe(process.execPath);
    expect(path.basename(args[0])).toBe('vscodeFlags.js');
    expect(JSON.parse(execFileSync(cmd, args, { encoding: 'utf8' }))).toEqual({ 'enable-smoke-test-driver': true, 'bind-addr': true });
  }, 30_000);
});
