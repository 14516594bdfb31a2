// @ts-check
/**
 * The fake extensions tests write. `writeShExtension`: the one fake sh extension the unit suites (hostFixtures.ts
 * `shExt`) and the VS Code suites (inhost/util.js `writeShExt`, compat.test.js's zot one) write: a sh script that says
 * hello, optionally registers a command `<name>-hi` that answers with a fixed text, says ready, and ends on
 * `shutdown`. `writeNodeExtension`: a folder for a Node program a test writes inline (its manifest and the program).
 * Plain JS so both suites can load it.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');

/**
 * Writes `<root>/<name>/run.sh` and its `extension.json` (`{ name, exec: './run.sh', ...manifest }`); returns the dir.
 * @param {string} root
 * @param {string} name
 * @param {import('./fakeExtension').ShExtensionOptions} [o]
 * @returns {string}
 */
function writeShExtension(root, name, o = {}) {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  const v1 = o.protocol === 1;
  const hello = JSON.stringify({
    type: 'hello',
    ...(v1 ? {} : { protocol_version: 2 }),
    name,
    version: o.version ?? '1.0.0',
    capabilities: o.command !== undefined ? ['commands'] : [],
  });
  const register = o.command !== undefined ? ` '${JSON.stringify({ type: 'register_command', name: `${name}-hi`, description: 'hi' })}'` : '';
  const lines = ['#!/bin/sh'];
  if (o.comment !== undefined) lines.push(`# ${o.comment}`);
  lines.push(`printf '%s\\n' '${hello}'`);
  // zut v2 registers right after hello; zot v1 waits for hello_ack.
  if (!v1) lines.push(`printf '%s\\n'${register} '{"type":"ready"}'`);
  lines.push('while IFS= read -r l; do', '  case "$l" in');
  if (v1) lines.push(`    *'"hello_ack"'*) printf '%s\\n'${register} '{"type":"ready"}' ;;`);
  if (o.command !== undefined) {
    const reply = JSON.stringify({ type: 'command_response', id: '%s', action: 'display', display: o.command });
    lines.push(
      `    *'"command_invoked"'*) id=$(printf '%s' "$l" | sed -n 's/.*"id":"\\([^"]*\\)".*/\\1/p')`,
      `      printf '${reply}\\n' "$id" ;;`,
    );
  }
  lines.push(`    *'"shutdown"'*) printf '%s\\n' '{"type":"shutdown_ack"}'; exit 0 ;;`, '  esac', 'done');
  fs.writeFileSync(path.join(dir, 'run.sh'), lines.join('\n') + '\n', { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ name, exec: './run.sh', ...o.manifest }, null, 2));
  return dir;
}

/**
 * Writes `<root>/<name>/<file>` (default `main.js`) holding `program` and its `extension.json`:
 * `{ name, exec, args: [program path, ...args], ...manifest }` (exec `node` and the path relative to the folder unless
 * told otherwise); returns the dir.
 * @param {string} root
 * @param {string} name
 * @param {string} program
 * @param {import('./fakeExtension').NodeExtensionOptions} [o]
 * @returns {string}
 */
function writeNodeExtension(root, name, program, o = {}) {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  const file = o.file ?? 'main.js';
  fs.writeFileSync(path.join(dir, file), program, { mode: 0o644 });
  const manifest = { name, exec: o.exec ?? 'node', args: [o.absolute ? path.join(dir, file) : file, ...(o.args ?? [])], ...o.manifest };
  fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify(manifest, null, 2));
  return dir;
}

/**
 * The text of a zut v2 extension in Node (for `writeNodeExtension`): says hello (`capabilities`), and on `hello_ack`
 * registers `command` when given, then says ready; `onMessage` (statements over `m`, the parsed frame, and `emit`)
 * handles what else comes; `shutdown` is acknowledged and ends it. `prelude`: statements before the hello.
 * @param {string} name
 * @param {import('./fakeExtension').NodeProgramOptions} [o]
 * @returns {string}
 */
function nodeProgram(name, o = {}) {
  const hello = { type: 'hello', protocol_version: 2, name, version: o.version ?? '1.0.0', capabilities: o.command ? ['commands'] : [] };
  const register = o.command ? `emit(${JSON.stringify({ type: 'register_command', ...o.command })}); ` : '';
  return [
    ...(o.prelude ? [o.prelude] : []),
    "const emit = (o) => process.stdout.write(JSON.stringify(o) + '\\n');",
    `emit(${JSON.stringify(hello)});`,
    "require('readline').createInterface({ input: process.stdin }).on('line', (l) => {",
    '  const m = JSON.parse(l);',
    `  if (m.type === 'hello_ack') { ${register}emit({ type: 'ready' }); }`,
    "  else if (m.type === 'shutdown') { emit({ type: 'shutdown_ack' }); process.exit(0); }",
    ...(o.onMessage ? [`  else { ${o.onMessage} }`] : []),
    '});',
  ].join('\n');
}

module.exports = { writeShExtension, writeNodeExtension, nodeProgram };
