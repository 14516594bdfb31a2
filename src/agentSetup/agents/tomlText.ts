/**
 * A minimal, careful TOML text editor for the few tables zut owns in a user's TOML file (Codex's config.toml:
 * `[mcp_servers.zut]`, `[hooks.state."<key>"]`): it finds standard table headers (`[a."b".c]`, not `[[arrays]]`,
 * skipping multi-line strings and arrays), reads and replaces single-line `key = value` pairs of one table, appends a
 * table at the end and removes one — every other byte of the file as it was. It does not parse TOML as a whole: a
 * table of ours that is also defined another way (dotted keys, an inline table) is reported by `definedElsewhere`
 * so the caller can refuse rather than write a file the agent would reject. VS Code-free.
 */

/** A standard table: its key path, its header line, and the lines of its body (end exclusive). */
export interface TomlTable {
  path: string[];
  header: number;
  end: number;
}

/** A TOML basic string. */
export const tomlString = (s: string): string => JSON.stringify(s).replace(/[\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** A value written by us: a string, an integer, a boolean or an array of strings. */
export type TomlValue = string | number | boolean | readonly string[];

export function tomlValue(v: TomlValue): string {
  if (typeof v === 'string') return tomlString(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return `[${v.map(tomlString).join(', ')}]`;
}

/** A table header's text for `path` (bare keys where TOML allows them). */
export function tomlHeader(path: readonly string[]): string {
  return `[${path.map((k) => (/^[A-Za-z0-9_-]+$/.test(k) ? k : tomlString(k))).join('.')}]`;
}

/** Parses a dotted key (`a."b c".'d'`) at the start of `s`; returns the parts and the rest, or undefined. */
export function parseKey(s: string): { path: string[]; rest: string } | undefined {
  const path: string[] = [];
  let i = 0;
  for (;;) {
    while (s[i] === ' ' || s[i] === '\t') i++;
    let m: RegExpExecArray | null;
    if (s[i] === '"') {
      m = /^"((?:[^"\\\n]|\\.)*)"/.exec(s.slice(i));
      if (!m) return undefined;
      try {
        path.push(JSON.parse(`"${m[1].replace(/\\U([0-9A-Fa-f]{8})/g, (_x, h: string) => String.fromCodePoint(parseInt(h, 16)).replace(/[\\"]/g, '\\$&'))}"`) as string);
      } catch {
        return undefined;
      }
    } else if (s[i] === "'") {
      m = /^'([^'\n]*)'/.exec(s.slice(i));
      if (!m) return undefined;
      path.push(m[1]);
    } else {
      m = /^[A-Za-z0-9_-]+/.exec(s.slice(i));
      if (!m) return undefined;
      path.push(m[0]);
    }
    i += m[0].length;
    while (s[i] === ' ' || s[i] === '\t') i++;
    if (s[i] !== '.') return { path, rest: s.slice(i) };
    i++;
  }
}

/** Per line: whether it starts inside a multi-line string or a multi-line array (not a place for a header). */
function lineStarts(lines: readonly string[]): boolean[] {
  const inside: boolean[] = [];
  let str: '"""' | "'''" | undefined;
  let depth = 0;
  for (const line of lines) {
    inside.push(str !== undefined || depth > 0);
    let i = 0;
    const headerLine = str === undefined && depth === 0 && /^\s*\[/.test(line);
    if (headerLine) continue;
    while (i < line.length) {
      if (str) {
        const at = line.indexOf(str, i);
        if (at < 0) break;
        i = at + 3;
        str = undefined;
        continue;
      }
      const c = line[i];
      if (c === '#') break;
      if (line.startsWith('"""', i) || line.startsWith("'''", i)) {
        str = line.slice(i, i + 3) as '"""' | "'''";
        i += 3;
      } else if (c === '"') {
        const m = /^"(?:[^"\\]|\\.)*"/.exec(line.slice(i));
        i += m ? m[0].length : line.length;
      } else if (c === "'") {
        const end = line.indexOf("'", i + 1);
        i = end < 0 ? line.length : end + 1;
      } else {
        if (c === '[') depth++;
        else if (c === ']') depth = Math.max(0, depth - 1);
        i++;
      }
    }
  }
  return inside;
}

const splitLines = (text: string) => text.split('\n');

/** The standard tables of `text`, in order (the root table, before the first header, is not listed). */
export function tomlTables(text: string): TomlTable[] {
  const lines = splitLines(text);
  const inside = lineStarts(lines);
  const headers: { path: string[]; header: number }[] = [];
  const all: number[] = [];
  lines.forEach((line, n) => {
    if (inside[n]) return;
    const t = line.trimStart();
    if (t.startsWith('[[')) return void all.push(n);
    if (!t.startsWith('[')) return;
    const k = parseKey(t.slice(1));
    if (!k || !/^\]\s*(#.*)?\r?$/.test(k.rest)) return;
    headers.push({ path: k.path, header: n });
    all.push(n);
  });
  return headers.map((h) => ({ ...h, end: all.find((n) => n > h.header) ?? lines.length }));
}

const samePath = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((k, i) => k === b[i]);

/** The table `path`, if the file has it as a standard table. */
export function findTable(text: string, path: readonly string[]): TomlTable | undefined {
  return tomlTables(text).find((t) => samePath(t.path, path));
}

/** The line of the table's `key = …` (a single-line pair), or undefined. */
function keyLine(lines: readonly string[], t: TomlTable, key: string): number | undefined {
  for (let n = t.header + 1; n < t.end; n++) {
    const k = parseKey(lines[n]);
    if (k && k.path.length === 1 && k.path[0] === key && k.rest.startsWith('=')) return n;
  }
  return undefined;
}

/** The string value of `key` in table `path` (a basic or literal string on one line), or undefined. */
export function readString(text: string, path: readonly string[], key: string): string | undefined {
  const t = findTable(text, path);
  if (!t) return undefined;
  const lines = splitLines(text);
  const n = keyLine(lines, t, key);
  if (n === undefined) return undefined;
  const v = parseKey(lines[n])!.rest.slice(1).trim();
  const m = /^("(?:[^"\\]|\\.)*"|'[^']*')\s*(#.*)?\r?$/.exec(v);
  if (!m) return undefined;
  return m[1].startsWith("'") ? m[1].slice(1, -1) : (parseKey(m[1])?.path[0] ?? undefined);
}

/**
 * `text` with table `path` holding `values`: an existing table's pairs of these keys replaced in place (a pair whose
 * value spans lines is refused), missing ones added after its last pair, its other lines kept; a missing table
 * appended at the end after a blank line.
 */
export function setTable(text: string, path: readonly string[], values: Readonly<Record<string, TomlValue>>): string {
  const t = findTable(text, path);
  const pairs = Object.entries(values).map(([k, v]) => `${/^[A-Za-z0-9_-]+$/.test(k) ? k : tomlString(k)} = ${tomlValue(v)}`);
  if (!t) {
    const base = text === '' ? '' : text.endsWith('\n\n') ? text : text.endsWith('\n') ? text + '\n' : text + '\n\n';
    return `${base}${tomlHeader(path)}\n${pairs.join('\n')}\n`;
  }
  const lines = splitLines(text);
  const inside = lineStarts(lines);
  const add: string[] = [];
  Object.keys(values).forEach((k, i) => {
    const n = keyLine(lines, t, k);
    if (n === undefined) return void add.push(pairs[i]);
    if (n + 1 < t.end && inside[n + 1]) throw new Error(`${tomlHeader(path)} ${k} spans several lines: left as it is`);
    const eol = lines[n].endsWith('\r') ? '\r' : '';
    lines[n] = pairs[i] + eol;
  });
  if (add.length > 0) {
    let last = t.header;
    for (let n = t.header + 1; n < t.end; n++) if (lines[n].trim() !== '' && !lines[n].trim().startsWith('#')) last = n;
    while (last + 1 < t.end && inside[last + 1]) last++;
    lines.splice(last + 1, 0, ...add);
  }
  return lines.join('\n');
}

/**
 * `text` without table `path` (its header and body; comment and blank lines at its end, which may introduce the
 * next table, kept; one blank line before it dropped when it leaves two in a row). Unchanged when absent.
 */
export function removeTable(text: string, path: readonly string[]): string {
  const t = findTable(text, path);
  if (!t) return text;
  const lines = splitLines(text);
  // The '' after a final newline is no line of the table: the newline stays.
  const last = lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
  let end = Math.min(t.end, last);
  const atEnd = end >= last;
  if (!atEnd) while (end - 1 > t.header && (lines[end - 1].trim() === '' || lines[end - 1].trim().startsWith('#'))) end--;
  let start = t.header;
  if (start > 0 && lines[start - 1].trim() === '' && (atEnd || lines[end]?.trim() === '')) start--;
  else if (start === 0 && !atEnd && lines[end]?.trim() === '') end++; // first in the file: no blank line left at its top
  lines.splice(start, end - start);
  const out = lines.join('\n');
  return out.trim() === '' ? '' : out;
}

/** `text` with table `from` renamed `to` (its header line rewritten, its body kept). Unchanged when absent. */
export function renameTable(text: string, from: readonly string[], to: readonly string[]): string {
  const t = findTable(text, from);
  if (!t) return text;
  const lines = splitLines(text);
  lines[t.header] = tomlHeader(to) + (lines[t.header].endsWith('\r') ? '\r' : '');
  return lines.join('\n');
}

/**
 * Whether `path` (or a key under it) is set in a way other than a standard table of that path — a dotted key or an
 * inline table in a parent table, or the root — which setTable would then duplicate (an invalid file).
 */
export function definedElsewhere(text: string, path: readonly string[]): boolean {
  const lines = splitLines(text);
  const inside = lineStarts(lines);
  const tables = tomlTables(text);
  const tableOf = (n: number): string[] => tables.filter((t) => t.header < n && n < t.end).at(-1)?.path ?? [];
  return lines.some((line, n) => {
    if (inside[n] || /^\s*\[/.test(line)) return false;
    const k = parseKey(line);
    if (!k || !k.rest.startsWith('=')) return false;
    const table = tableOf(n);
    if (table.length >= path.length && samePath(table.slice(0, path.length), path)) return false; // in our table (or under it)
    const full = [...table, ...k.path];
    const overlap = Math.min(full.length, path.length);
    return samePath(full.slice(0, overlap), path.slice(0, overlap)) && (full.length >= path.length || /^=\s*\{/.test(k.rest));
  });
}
