/**
 * The Marketplace and Open VSX package (issue 42, point 1), from the repository's own manifest, README, CHANGELOG,
 * LICENSE, .vscodeignore and media, with a stand-in dist/ (the bundle is bundle.test.ts's): `vsce package` as
 * `npm run package` runs it prints no warning, and the Open VSX check (scripts/openvsx-check.mjs: ovsx's own client
 * checks and its registry's rules) accepts the .vsix. Without `repository` vsce refuses README's relative image, and
 * when nothing fails, its warning (answered "y" off a terminal) still refuses the package. README's images are
 * relative paths, not SVG, shipped in the package and rewritten to the repository's; CHANGELOG has the version.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTemps, tempDir } from '../helpers/temp';

type PackageScript = typeof import('../../scripts/package.mjs', { with: { 'resolution-mode': 'import' } });
type OpenVsxCheck = typeof import('../../scripts/openvsx-check.mjs', { with: { 'resolution-mode': 'import' } });
let pkg: PackageScript;
let ovsx: OpenVsxCheck;

const ROOT = path.resolve(__dirname, '../..');
/** The repository package.json names (assumed: the project has no remote on record). */
const REPOSITORY = 'https://github.com/bnema/zut-vscode';
const SOURCES = ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', '.vscodeignore', 'media', 'docs/images'];

/** A copy of what vsce packages from the repository, with a stand-in dist/main.js; `edit` changes package.json. */
function packagingDir(edit: (manifest: Record<string, unknown>) => void = () => undefined, readme?: string): string {
  const dir = tempDir('zut-vsix-');
  for (const f of SOURCES) fs.cpSync(path.join(ROOT, f), path.join(dir, f), { recursive: true });
  fs.mkdirSync(path.join(dir, 'dist'));
  fs.writeFileSync(path.join(dir, 'dist', 'main.js'), 'exports.activate = () => undefined;\n');
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
  edit(manifest);
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  if (readme !== undefined) fs.writeFileSync(path.join(dir, 'README.md'), readme);
  return dir;
}

/** README's image sources: `![alt](src)` and `<img src="…">`. */
function readmeImages(md: string): string[] {
  return [...md.matchAll(/!\[[^\]]*\]\(([^)\s]+)[^)]*\)/g), ...md.matchAll(/<img[^>]+src=["']([^"']+)["']/g)].map((m) => m[1]);
}

beforeAll(async () => {
  // The scripts are ES modules; this file is compiled as CommonJS, so they are loaded with import().
  pkg = await import('../../scripts/package.mjs');
  ovsx = await import('../../scripts/openvsx-check.mjs');
});
afterAll(cleanupTemps);

describe('the Marketplace and Open VSX package', () => {
  it('vsce packages the repository with no warning, and the Open VSX check accepts the .vsix', async () => {
    const dir = packagingDir();
    const vsix = path.join(dir, 'out', 'zut-vscode.vsix');
    const output = pkg.vscePackageClean(dir, vsix);
    expect(output).toMatch(/DONE.*Packaged/);
    expect(pkg.vsceWarnings(output)).toEqual([]);
    expect(await ovsx.openVsxProblems(vsix)).toEqual([]);
    // README's image, as the Marketplace and Open VSX show it: the repository's copy of the file we ship.
    expect(await ovsx.vsixText(vsix, 'extension/readme.md')).toContain(`](${REPOSITORY}/raw/HEAD/docs/images/zut-vscode.png)`);
    expect(await ovsx.vsixText(vsix, 'extension.vsixmanifest')).toContain(`<Property Id="Microsoft.VisualStudio.Services.Links.Support" Value="${REPOSITORY}/issues" />`);
  }, 60_000);

  it('without a repository, vsce refuses README’s relative image', () => {
    const dir = packagingDir((m) => delete m.repository);
    expect(() => pkg.vscePackageClean(dir, path.join(dir, 'x.vsix'))).toThrow(/Couldn't detect the repository.*docs\/images\/zut-vscode\.png/);
  }, 60_000);

  it('a warning vsce answers by itself (no repository, nothing relative in README) still refuses the package', () => {
    const dir = packagingDir((m) => delete m.repository, '# Zut Extensions\n\nNo relative link here.\n');
    const output = pkg.runVscePackage(dir, path.join(dir, 'quiet.vsix'));
    // vsce went on (it answers its own question "y" when stdout is not a terminal) …
    expect(fs.existsSync(path.join(dir, 'quiet.vsix'))).toBe(true);
    // … but said why it should not have.
    expect(pkg.vsceWarnings(output)).toEqual([expect.stringContaining("A 'repository' field is missing")]);
    expect(() => pkg.vscePackageClean(dir, path.join(dir, 'quiet2.vsix'))).toThrow(/vsce warned/);
    expect(fs.existsSync(path.join(dir, 'quiet2.vsix'))).toBe(false);
    // In GitHub Actions' form too.
    expect(pkg.vsceWarnings('::warning::A field is missing\n INFO fine\n')).toEqual(['::warning::A field is missing']);
  }, 60_000);

  it('the Open VSX check refuses what the registry refuses', () => {
    const good = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(ovsx.manifestProblems(good)).toEqual([]);
    expect(ovsx.manifestProblems({ ...good, publisher: undefined })).toEqual(["Missing required field 'publisher'."]);
    expect(ovsx.manifestProblems({ ...good, name: 'zut vscode', version: '0.1' })).toEqual(['Invalid extension name: zut vscode', 'Invalid semantic version: 0.1']);
    expect(ovsx.manifestProblems({ ...good, homepage: 'github.com/bnema', bugs: { url: 'https://' } })).toEqual([
      "Invalid URL in field 'homepage': github.com/bnema",
      "Invalid URL in field 'bugs': https://",
    ]);
    expect(ovsx.manifestProblems({ ...good, description: 'x'.repeat(2049), markdown: 'gfm', icon: 'media/icon.svg' })).toEqual([
      "The field 'description' exceeds the current limit of 2048 characters.",
      "Invalid value in field 'markdown': gfm. Allowed values: github, standard",
      'This extension cannot be accepted as it uses an unsupported icon format.',
    ]);
    expect(ovsx.manifestProblems({ ...good, displayName: 'Zut\u0007' })).toEqual([expect.stringContaining("Invalid character found in field 'displayName'")]);
  });

  it("README's images are relative paths to files in the package, none an SVG", () => {
    const images = readmeImages(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
    expect(images.length).toBeGreaterThan(0);
    const files = pkg.packagedFiles(ROOT);
    for (const src of images) {
      expect(src, src).not.toMatch(/^[a-z]+:|^\/|\.svg$/i);
      expect(files, src).toContain(path.posix.normalize(src));
    }
  }, 60_000);

  it('homepage, repository and bugs name one repository; CHANGELOG has a section for the version', () => {
    const m = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { homepage: string; repository: { url: string }; bugs: { url: string }; version: string };
    expect([m.homepage, m.repository.url, m.bugs.url]).toEqual([`${REPOSITORY}#readme`, `${REPOSITORY}.git`, `${REPOSITORY}/issues`]);
    const changelog = fs.readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8');
    const sections = [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+[^\]]*)\] - (\d{4}-\d{2}-\d{2}|unreleased)$/gm)].map((s) => s[1]);
    expect(sections[0]).toBe(m.version);
    expect(changelog.match(/^## /gm)?.length).toBe(sections.length);
  });
});
