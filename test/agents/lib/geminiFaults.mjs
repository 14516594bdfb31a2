// @ts-check
// TEST ONLY: the faults the Gemini CLI scenarios inject (gemini.test.mjs), as files written into a sandbox.
// - `killHookPreload`: a Node preload (`NODE_OPTIONS=--require <file>`, inherited by every node Gemini CLI starts)
//   that SIGKILLs the process at once when it is zut's hook entry (dist/hook.js or dist/cli.js `hook`): a hook killed
//   before writing anything. Gemini CLI itself and zut's MCP server are left alone.
// - `badGuard(mode)`: a zut extension that intercepts every tool call and then hangs (`hang`: never answers),
//   answers garbage (`garbage`: a line that is not JSON, then an answer of the wrong shape) or exits (`crash`).
import fs from 'node:fs';
import path from 'node:path';

/** Writes the preload into `dir`; returns its path. @param {string} dir */
export function killHookPreload(dir) {
  const file = path.join(dir, 'kill-hook.cjs');
  fs.writeFileSync(
    file,
    `// TEST ONLY: SIGKILL zut's hook process as it starts.\nconst a = process.argv;\nif (/(^|[\\\\/])(hook|cli)\\.js$/.test(a[1] || '') && a[2] === 'hook' && a.includes('--agent')) process.kill(process.pid, 'SIGKILL');\n`,
  );
  return file;
}

/** The extension's script. */
const BAD_GUARD = `
import { createInterface } from 'node:readline';
const mode = process.env.BAD_GUARD_MODE;
const out = (f) => process.stdout.write(JSON.stringify(f) + '\\n');
out({ type: 'hello', protocol_version: 2, name: 'bad-guard', version: '1.0.0', capabilities: [] });
createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.type === 'hello_ack') {
    out({ type: 'subscribe', events: [], intercept: ['tool_call'] });
    out({ type: 'ready' });
  } else if (msg.type === 'event_intercept') {
    if (mode === 'crash') process.exit(3);
    if (mode === 'garbage') {
      process.stdout.write('this is not JSON {{{\\n');
      out({ type: 'event_intercept_response', id: msg.id, block: 'perhaps', modified_args: 42 });
    }
    // hang: never answers
  } else if (msg.type === 'shutdown') {
    out({ type: 'shutdown_ack' });
    process.exit(0);
  }
});
`;

/**
 * Installs the bad guard as a global zut extension of the sandbox (beside the test guard); its mode comes from
 * $BAD_GUARD_MODE in the agent's environment.
 * @param {import('./sandbox.mjs').Sandbox} sb
 */
export function addBadGuard(sb) {
  const dir = path.join(sb.zutHome, 'extensions', 'bad-guard');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'guard.mjs'), BAD_GUARD);
  fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ name: 'bad-guard', exec: process.execPath, args: [path.join(dir, 'guard.mjs')] }));
}
