/**
 * Extension-bundled skills (`skills` in extension.json). Every declared path must stay inside the extension
 * directory, also after symlinks are resolved; a bad path is a diagnostic naming it, never fatal.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Skill } from '../types';
import { SKILL_FRONTMATTER_BYTES as FRONTMATTER_BYTES } from '../../protocol/limits';

export const SKILL_FILE = 'SKILL.md';


/** True when `child` is `root` or below it (both absolute, already normalised). */
function isInside(root: string, child: string): boolean {
  const rel = path.relative(root, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Parses `---`-delimited frontmatter of simple `key: value` lines (quotes stripped). */
export function parseFrontmatter(text: string): Record<string, string> {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const out: Record<string, string> = {};
  if (lines[0]?.trim() !== '---') return out;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '---') return out;
    const m = /^([A-Za-z0-9_-]+)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    let value = m[2]!.trim();
    if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.endsWith(value[0])) {
      value = value.slice(1, -1);
    }
    out[m[1]!] = value;
  }
  return {}; // no closing `---`: not frontmatter
}

async function readHead(file: string): Promise<string> {
  const fh = await fs.open(file, 'r');
  try {
    const buf = Buffer.alloc(FRONTMATTER_BYTES);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return buf.toString('utf8', 0, bytesRead);
  } finally {
    await fh.close();
  }
}

async function statOrUndefined(p: string) {
  try {
    return await fs.stat(p);
  } catch {
    return undefined;
  }
}

/**
 * Loads the skills declared by an extension. Each path (relative to `dir`) is either a direct `SKILL.md`, a
 * directory holding a `SKILL.md` itself (one skill), or a directory of `<name>/SKILL.md` subdirectories. Rejected
 * with a diagnostic: absolute paths, `..` escapes, symlinks resolving outside `dir` (checked for the declared path
 * and for every SKILL.md found below it), missing paths, and paths with no SKILL.md. A skill's name is its
 * frontmatter `name`, else its directory name; a duplicate name is reported and the first one kept.
 * `Skill.path` is the real (symlink-free) absolute path.
 */
export async function loadSkills(dir: string, skillPaths: string[]): Promise<{ skills: Skill[]; diagnostics: string[] }> {
  const diagnostics: string[] = [];
  const skills: Skill[] = [];
  if (skillPaths.length === 0) return { skills, diagnostics };
  let root: string;
  try {
    root = await fs.realpath(dir);
  } catch (e) {
    return { skills, diagnostics: [`skills: cannot resolve ${dir}: ${(e as Error).message}`] };
  }
  const seen = new Map<string, string>();

  const addSkill = async (file: string, declared: string): Promise<void> => {
    let real: string;
    try {
      real = await fs.realpath(file);
    } catch {
      return;
    }
    if (!isInside(root, real)) {
      diagnostics.push(`skills: ${JSON.stringify(declared)}: ${path.relative(dir, file)} resolves outside the extension directory`);
      return;
    }
    let fm: Record<string, string>;
    try {
      fm = parseFrontmatter(await readHead(real));
    } catch (e) {
      diagnostics.push(`skills: ${JSON.stringify(declared)}: cannot read ${path.relative(dir, file)}: ${(e as Error).message}`);
      return;
    }
    const name = fm.name || path.basename(path.dirname(file));
    const previous = seen.get(name);
    if (previous !== undefined) {
      diagnostics.push(`skills: duplicate skill name ${JSON.stringify(name)} in ${real} (keeping ${previous})`);
      return;
    }
    seen.set(name, real);
    skills.push({ name, path: real, ...(fm.description ? { description: fm.description } : {}) });
  };

  for (const declared of skillPaths) {
    const label = `skills: ${JSON.stringify(declared)}`;
    if (declared === '' || path.isAbsolute(declared) || path.win32.isAbsolute(declared)) {
      diagnostics.push(`${label}: path must be relative to the extension directory`);
      continue;
    }
    const target = path.resolve(dir, declared);
    if (!isInside(path.resolve(dir), target)) {
      diagnostics.push(`${label}: path escapes the extension directory`);
      continue;
    }
    let real: string;
    try {
      real = await fs.realpath(target);
    } catch {
      diagnostics.push(`${label}: not found`);
      continue;
    }
    if (!isInside(root, real)) {
      diagnostics.push(`${label}: resolves outside the extension directory (symlink)`);
      continue;
    }
    const st = await statOrUndefined(real);
    if (st?.isFile()) {
      if (path.basename(real) !== SKILL_FILE) diagnostics.push(`${label}: not a ${SKILL_FILE} file`);
      else await addSkill(target, declared);
      continue;
    }
    if (!st?.isDirectory()) {
      diagnostics.push(`${label}: not a file or directory`);
      continue;
    }
    const before = skills.length + diagnostics.length;
    if ((await statOrUndefined(path.join(target, SKILL_FILE)))?.isFile()) {
      await addSkill(path.join(target, SKILL_FILE), declared);
    } else {
      let entries: string[];
      try {
        entries = (await fs.readdir(target)).sort();
      } catch (e) {
        diagnostics.push(`${label}: ${(e as Error).message}`);
        continue;
      }
      for (const entry of entries) {
        if (entry.startsWith('.')) continue;
        const file = path.join(target, entry, SKILL_FILE);
        if ((await statOrUndefined(file))?.isFile()) await addSkill(file, declared);
      }
    }
    if (skills.length + diagnostics.length === before) diagnostics.push(`${label}: no ${SKILL_FILE} found`);
  }
  return { skills, diagnostics };
}
