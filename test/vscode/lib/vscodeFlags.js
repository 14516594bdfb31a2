// @ts-check
// Starts a code-server that predates `--vscode-option` (4.104.0 has none) with VS Code server flags it has no option
// for: `node vscodeFlags.js <code-server's out/node/entry.js> --enable-smoke-test-driver <its other args>`.
// code-server's CLI refuses options it does not know, but hands every parsed option on to VS Code's server
// (cli.js toCodeArgs spreads them), which reads `enable-smoke-test-driver` itself; so the flags below are added to
// code-server's option table before its entry runs. Newer code-server is started directly with
// `--vscode-option enable-smoke-test-driver` (codeServer.mjs serverCommand).
const path = require('node:path');

/** The VS Code server flags this shim may pass (booleans of VS Code's argv.ts that the test rigs need). */
const VSCODE_BOOLEAN_FLAGS = ['enable-smoke-test-driver'];

const [entry, ...args] = process.argv.slice(2);
if (!entry || path.basename(entry) !== 'entry.js') throw new Error(`usage: node vscodeFlags.js <code-server>/out/node/entry.js ARGS… (got ${entry})`);
/** @type {{ options: Record<string, { type: string }> }} */
const cli = require(path.join(path.dirname(entry), 'cli.js'));
for (const flag of VSCODE_BOOLEAN_FLAGS) cli.options[flag] ??= { type: 'boolean' };
// code-server reads its arguments from process.argv.slice(2); its wrapper forks entry.js itself for the server child.
process.argv.splice(1, process.argv.length - 1, entry, ...args);
require(entry);
