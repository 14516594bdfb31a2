#!/usr/bin/env node
// The Open VSX check of a packaged .vsix, offline: what `ovsx publish <file>.vsix` and the registry would refuse.
// `ovsx` (1.3.0) has no dry run: with a .vsix it reads extension/package.json (its own readVSIXPackage), checks the
// manifest (validateManifest: publisher, name, version) and the license (isLicenseOk), then needs a token and the
// registry, which validates on its side (openvsx server: PublishExtensionVersionHandler and ExtensionValidator). This
// runs ovsx's own client checks, then those server rules, read from its source, that depend on the package alone:
// the name and namespace pattern, a semantic version, the field sizes and characters, absolute URLs for homepage,
// repository and bugs, the allowed `markdown`/`qna`/`galleryBanner` values, a license, an icon format other than
// SVG, and vsixmanifest's Identity equal to package.json's (publisher, name, version).
// CLI: `node scripts/openvsx-check.mjs <file.vsix>` → prints the problems and exits 1, or prints "ok".
// API: `openVsxProblems(vsix)` resolves with the list of problems (empty: accepted); `vsixText(vsix, file)`.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ovsx = require('ovsx');
const { readVSIXPackage, readZip } = require('ovsx/lib/zip');

/** ExtensionValidator's limits (openvsx server): DEFAULT_STRING_SIZE, DESCRIPTION_SIZE, GALLERY_COLOR_SIZE. */
const STRING_SIZE = 255;
const DESCRIPTION_SIZE = 2048;
const GALLERY_COLOR_SIZE = 16;
/** ExtensionValidator's namePattern, for the namespace (the publisher) and the extension's name. */
const NAME = /^[\w\-+$~]+$/;
/** semver.org's regular expression (the server parses with SemanticVersion.parse). */
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;
/** Characters the server refuses in text fields: Java's CONTROL, FORMAT, UNASSIGNED, PRIVATE_USE, line/paragraph separators. */
const BAD_CHAR = /[\p{Cc}\p{Cf}\p{Cn}\p{Co}\p{Zl}\p{Zp}]/u;
const ZERO_WIDTH_JOINER = /\u200D/gu; // allowed in the description only

/** @param {unknown} v */
const text = (v) => (typeof v === 'string' ? v : undefined);
/** @param {unknown} v the package.json form of repository/bugs: a string or `{ url }` */
const urlOf = (v) => text(v) ?? (v && typeof v === 'object' ? text(/** @type {{url?: unknown}} */ (v).url) : undefined);

/** Absolute, and an http(s) URL has a host (ExtensionValidator.isInvalidURL; a `git+` prefix is allowed). */
function validUrl(value) {
  try {
    const u = new URL(value.startsWith('git+') ? value.slice(4) : value);
    return !(/^https?:$/.test(u.protocol) && u.hostname === '');
  } catch {
    return false;
  }
}

/** The problems the registry would report for this manifest (package.json as packaged). */
export function manifestProblems(m) {
  const out = [];
  const field = (name, value, limit = STRING_SIZE, allowed = undefined) => {
    if (value === undefined) return;
    const v = allowed ? value.replace(allowed, '') : value;
    if (BAD_CHAR.test(v)) out.push(`Invalid character found in field '${name}': ${value}`);
    if (value.length > limit) out.push(`The field '${name}' exceeds the current limit of ${limit} characters.`);
  };
  try {
    ovsx.validateManifest(m);
  } catch (e) {
    out.push(String(e instanceof Error ? e.message : e));
  }
  for (const [what, v] of [['namespace name', m.publisher], ['extension name', m.name]]) {
    if (typeof v === 'string' && !NAME.test(v)) out.push(`Invalid ${what}: ${v}`);
    if (typeof v === 'string' && v.length > STRING_SIZE) out.push(`The ${what} exceeds the current limit of ${STRING_SIZE} characters.`);
  }
  if (typeof m.version === 'string' && (!SEMVER.test(m.version) || ['latest', 'pre-release', 'reviews'].includes(m.version))) {
    out.push(`Invalid semantic version: ${m.version}`);
  }
  field('displayName', text(m.displayName));
  field('description', text(m.description), DESCRIPTION_SIZE, ZERO_WIDTH_JOINER);
  for (const c of Array.isArray(m.categories) ? m.categories : []) field('categories', text(c));
  for (const k of Array.isArray(m.keywords) ? m.keywords : []) field('keywords', text(k));
  field('license', text(m.license));
  for (const [name, v] of [['homepage', text(m.homepage)], ['repository', urlOf(m.repository)], ['bugs', urlOf(m.bugs)]]) {
    if (v === undefined || v === '') continue;
    if (!validUrl(v)) out.push(`Invalid URL in field '${name}': ${v}`);
    field(name, v);
  }
  const oneOf = (name, v, allowed, orUrl = false) => {
    if (v && !allowed.includes(v) && !(orUrl && validUrl(v))) out.push(`Invalid value in field '${name}': ${v}. Allowed values: ${allowed.join(', ')}`);
  };
  oneOf('markdown', text(m.markdown), ['github', 'standard']);
  oneOf('qna', typeof m.qna === 'boolean' ? String(m.qna) : text(m.qna), ['marketplace', 'false'], true);
  field('qna', text(m.qna));
  oneOf('galleryBanner.theme', text(m.galleryBanner?.theme), ['dark', 'light']);
  field('galleryBanner.color', text(m.galleryBanner?.color), GALLERY_COLOR_SIZE);
  if (typeof m.icon === 'string' && /\.svg$/i.test(m.icon)) out.push('This extension cannot be accepted as it uses an unsupported icon format.');
  return out;
}

/** The text of `file` (its path in the zip, e.g. `extension/readme.md`) in the .vsix at `vsix`. */
export async function vsixText(vsix, file) {
  const files = await readZip(vsix, (n) => n === file.toLowerCase());
  const b = files.get(file.toLowerCase());
  if (!b) throw new Error(`${vsix} has no ${file}`);
  return b.toString('utf8');
}

/** The problems ovsx and the registry would report for the .vsix at `vsix` (empty: accepted). */
export async function openVsxProblems(vsix) {
  const manifest = await readVSIXPackage(vsix);
  const out = manifestProblems(manifest);
  const files = await readZip(vsix, (n) => n === 'extension.vsixmanifest' || /^extension\/license(\.[a-z]+)?$/.test(n));
  if (!manifest.license && ![...files.keys()].some((n) => n.startsWith('extension/license'))) {
    out.push('This extension cannot be accepted because it has no license.');
  }
  const xml = files.get('extension.vsixmanifest')?.toString('utf8');
  const identity = xml?.match(/<Identity\b[^>]*>/)?.[0];
  if (!identity) return [...out, 'extension.vsixmanifest has no Identity'];
  const attr = (name) => identity.match(new RegExp(`\\b${name}="([^"]*)"`))?.[1];
  for (const [what, xmlName, value] of [['Publisher', 'Publisher', manifest.publisher], ['Extension name', 'Id', manifest.name], ['Extension version', 'Version', manifest.version]]) {
    if (String(attr(xmlName)).toLowerCase() !== String(value).toLowerCase()) out.push(`${what} in extension.vsixmanifest and package.json does not match.`);
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const vsix = process.argv[2];
  if (!vsix) {
    console.error('usage: node scripts/openvsx-check.mjs <file.vsix>');
    process.exit(2);
  }
  const problems = await openVsxProblems(vsix);
  if (problems.length) {
    console.error(`Open VSX would refuse ${vsix}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    process.exit(1);
  }
  console.log(`Open VSX check: ${path.basename(vsix)} ok`);
}
