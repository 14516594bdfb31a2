// @ts-check
// UI: a multi-root workspace (.code-workspace with two folders). Each folder's `.zut/extensions` is discovered,
// and a project extension's `hello_ack.cwd` is the folder it belongs to: `/git-branch` (shell, folder A) reports
// folder A, `/where` (a small Node extension in folder B) reports folder B. Screenshot: management-multiroot.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { notification, openWorkbench, screenshot, showZutView, startServer, tempDir, workspaceCopy, zutCommand } from './harness.mjs';

const WHERE_JS = `
const emit = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
let cwd = '';
emit({ type: 'hello', protocol_version: 2, name: 'where', version: '0.0.1', capabilities: ['commands'] });
require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.type === 'hello_ack') {
    cwd = m.cwd;
    emit({ type: 'register_command', name: 'where', description: 'show hello_ack.cwd' });
    emit({ type: 'ready' });
  } else if (m.type === 'command_invoked') {
    emit({ type: 'command_response', id: m.id, action: 'display', display: 'cwd: ' + cwd });
  } else if (m.type === 'shutdown') {
    emit({ type: 'shutdown_ack' });
    process.exit(0);
  }
});
`;


describe('management: multi-root workspace', () => {
  let server;
  let page;
  let folderA;
  let folderB;

  before(async () => {
    folderA = workspaceCopy();
    folderB = tempDir('folder-b');
    const ext = path.join(folderB, '.zut', 'extensions', 'where');
    fs.mkdirSync(ext, { recursive: true });
    fs.writeFileSync(path.join(ext, 'extension.json'), JSON.stringify({ name: 'where', version: '0.0.1', exec: 'node', args: ['where.js'] }));
    fs.writeFileSync(path.join(ext, 'where.js'), WHERE_JS);
    server = await startServer({ name: 'multiroot' });
    // The workbench talks to the server through vscode-remote URIs; plain paths in the file do not resolve there.
    const remote = (p) => `vscode-remote://${new URL(server.url).host}${p}`;
    const wsFile = path.join(tempDir('multiroot'), 'two.code-workspace');
    fs.writeFileSync(wsFile, JSON.stringify({ folders: [{ uri: remote(folderA) }, { uri: remote(folderB) }] }));
    page = await openWorkbench(server, { workspace: wsFile });
  });
  after(async () => { await server?.stop(); });

  it('discovers both folders, and each project extension gets its own folder as cwd', async () => {
    await showZutView(page);
    const rows = page.locator('[id="workbench.view.extension.zut"] .monaco-list-row');
    await rows.filter({ hasText: /^where/ }).filter({ hasText: 'running · project 0.0.1' }).first().waitFor();
    await rows.filter({ hasText: /^snippets/ }).filter({ hasText: 'running · project 1.0.0' }).first().waitFor();
    await rows.filter({ hasText: /^shell/ }).filter({ hasText: 'running · project 1.0.0' }).first().waitFor();
    await screenshot(page, 'management-multiroot');

    await zutCommand(page, 'where');
    await notification(page, `[where] cwd: ${folderB}`);
    await page.keyboard.press('Escape');
    await zutCommand(page, 'git-branch');
    const branch = await notification(page, `[shell] not a git repository: ${folderA}`);
    assert.equal(await branch.count(), 1);
    await page.keyboard.press('Escape');
  });
});
