#!/usr/bin/env node
// `npm start`: builds and packages the extension, provisions code-server (VS Code 1.139.1 in the browser),
// installs the vsix and serves examples/workspace. Open the printed URL; Ctrl+C stops everything.
//   node scripts/start.mjs [--port 8080] [--host 127.0.0.1] [--folder examples/workspace]
// Server state (settings, installed extension, logs) lives in .test-runs/start/. Workspace Trust is off so the
// project's zut extensions run; ZUT_HOME is inherited from your environment (default ~/.zut).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { killAllServersSync, portFree, freePort, startCodeServer } from '../test/vscode/lib/codeServer.mjs';
import { packageVsix, ROOT } from './package.mjs';
import { provision } from './provision.mjs';

const { values: opts } = parseArgs({ options: {
  port: { type: 'string', default: process.env.PORT ?? '8080' }, host: { type: 'string', default: '127.0.0.1' },
  folder: { type: 'string', default: path.join(ROOT, 'examples', 'workspace') } } });

let server;
let stopping = false;
async function stop(sig) {
  if (stopping) { killAllServersSync(); process.exit(1); }   // second Ctrl+C: no more waiting
  stopping = true;
  console.log(`\n${sig}: stopping code-server…`);
  await server?.stop();
  console.log('stopped.');
  process.exit(0);
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => { void stop(sig); });

try {
  const dir = path.join(ROOT, '.test-runs', 'start');
  fs.mkdirSync(dir, { recursive: true });
  console.log('building and packaging…');
  const vsix = packageVsix({ out: path.join(dir, 'zut-vscode.vsix'), production: false });
  console.log('provisioning Node 24 + code-server (the first time takes a few minutes)…');
  const tools = await provision({ browser: false });
  let port = Number(opts.port);
  if (!(await portFree(port, opts.host))) {
    const free = await freePort(opts.host);
    console.log(`port ${port} is taken; using ${free}`);
    port = free;
  }
  if (stopping) process.exit(0);
  server = await startCodeServer({ tools, dir, vsix, port, host: opts.host, trust: true, smokeTestDriver: false });
  const folder = path.resolve(opts.folder);
  console.log(`\nzut-vscode is running in VS Code ${tools.codeServerVersion.replace(/^4\./, '1.')} (code-server ${tools.codeServerVersion}).`);
  console.log(`Open:  ${server.url}?folder=${encodeURIComponent(folder)}`);
  console.log(`Logs:  ${path.relative(process.cwd(), server.log)} and ${path.relative(process.cwd(), server.logsDir)}/`);
  console.log('Stop:  Ctrl+C');
  const { code, sig } = await server.exited;
  if (!stopping) { console.error(`code-server exited on its own (code ${code}, signal ${sig}); see ${server.log}`); killAllServersSync(); process.exit(1); }
} catch (e) {
  console.error(e.aptLine ? `missing Debian packages; run as root:\n${e.aptLine}` : String(e.stack ?? e));
  killAllServersSync();
  process.exit(1);
}
