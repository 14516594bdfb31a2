/**
 * The CLI's npm package as README's Install section installs it (issue 42, point 1): `npm pack` of `zut-host`
 * (scripts/pack-cli.mjs) has no registry dependency, so `npm install -g --prefix <empty dir> <tgz>` works offline,
 * and the `zut-host` it puts in the prefix's bin answers `--version` with the extension's version. The package names
 * the repository, issue tracker and home page of package.json.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTemps, tempDir } from '../helpers/temp';
import { isolatedEnv, runProcess } from '../helpers/runProcess';

const ROOT = path.resolve(__dirname, '../..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

afterAll(cleanupTemps);

describe('npm install -g of the zut-host package', () => {
  it('installs offline into an empty prefix, and zut-host --version runs from it', async () => {
    const tmp = tempDir('zut-host-global-');
    const { packCli } = await import('../../scripts/pack-cli.mjs');
    const tarball = await packCli({ outDir: path.join(tmp, 'out') });
    const root = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    const packed = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' })) as Record<string, unknown>;
    expect(packed).toMatchObject({ name: 'zut-host', version: root.version, bin: { 'zut-host': 'dist/cli.js' } });
    // Nothing to fetch: what makes the install below work with no network.
    expect([packed.dependencies, packed.optionalDependencies, packed.peerDependencies]).toEqual([undefined, undefined, undefined]);
    expect([packed.homepage, packed.repository, packed.bugs]).toEqual([root.homepage, root.repository, root.bugs]);

    const prefix = path.join(tmp, 'prefix');
    const env = isolatedEnv(tmp, path.join(tmp, 'zut'), { npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' });
    const install = await runProcess(NPM, ['install', '-g', '--offline', '--prefix', prefix, tarball], { env, shell: process.platform === 'win32', timeoutMs: 120_000 });
    expect(install.code, install.stderr).toBe(0);
    // npm's global layout: <prefix>/bin/zut-host on POSIX, <prefix>/zut-host.cmd on Windows.
    const bin = process.platform === 'win32' ? path.join(prefix, 'zut-host.cmd') : path.join(prefix, 'bin', 'zut-host');
    const version = await runProcess(bin, ['--version'], { env, shell: process.platform === 'win32', timeoutMs: 30_000 });
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout).toBe(`zut-host ${String(root.version)}\n`);
  }, 180_000);
});
