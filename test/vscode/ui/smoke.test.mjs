// @ts-check
// UI smoke: the workbench loads with the packaged vsix installed, the extension activates (its `Zut` output
// channel is offered by the palette), every command it contributes is in the palette, and a screenshot is saved.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { openPalette, openWorkbench, paletteRow, screenshot, showOutputChannel, startServer, workspaceCopy } from './harness.mjs';

const { version } = JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));

describe('smoke: workbench with the vsix installed', () => {
  let server;
  let page;

  before(async () => {
    server = await startServer({ name: 'smoke' });
    page = await openWorkbench(server, { folder: workspaceCopy() });
  });
  after(async () => { await server?.stop(); });

  it('installed the vsix into the server', () => {
    const dirs = fs.readdirSync(server.extensionsDir).filter((d) => d.startsWith('zut.zut-vscode-'));
    assert.deepEqual(dirs, [`zut.zut-vscode-${version}`]);
    assert.ok(!fs.existsSync(`${server.extensionsDir}/${dirs[0]}/test`), 'the vsix must not ship test/');
  });

  it('activates and shows the Zut output channel', async () => {
    const output = await showOutputChannel(page, 'Zut');
    // The Output view shows the channel's log: the activation line written by activate(). It is near the top of a
    // log that outgrows the panel (the editor renders only the lines in view): go to the first line.
    await output.filter({ hasText: '[info]' }).waitFor();
    await output.click();
    await page.keyboard.press('Control+Home');
    await output.filter({ hasText: `zut-vscode ${version} activated` }).waitFor();
    await screenshot(page, 'smoke-output-zut');
  });

  it('offers every contributed command in the palette', async () => {
    // The manifest as installed (package.json may have changed since the vsix was packaged).
    const installed = JSON.parse(fs.readFileSync(`${server.extensionsDir}/zut.zut-vscode-${version}/package.json`, 'utf8'));
    // Commands with a commandPalette `when` clause are hidden or shown by context; check the unconditional ones.
    const conditional = new Set((installed.contributes?.menus?.commandPalette ?? []).filter((m) => m.when).map((m) => m.command));
    const commands = (installed.contributes?.commands ?? []).filter((c) => !conditional.has(c.command));
    assert.ok(commands.length > 0, 'the extension contributes commands');
    for (const c of commands) {
      const title = c.category ? `${c.category}: ${c.title}` : c.title;
      await openPalette(page, `>${title}`);
      await paletteRow(page, title).waitFor({ timeout: 15_000 });
    }
    await page.keyboard.press('Escape');
    const file = await screenshot(page, 'smoke-workbench');
    assert.ok(fs.statSync(file).size > 10_000, `screenshot ${file} is not empty`);
  });
});
