// @ts-check
// UI: "Zut: Where zut Reaches" as a person runs it from the installed .vsix (the command registered in
// dist/extension.js, its body in dist/agent-setup.js): a quick pick with a separator per VS Code harness and terminal
// agent, what is reached in one row, one row per gap; with zut.agentTools.via = provider the Copilot harness's tools
// are unknown, and picking that row opens the Settings editor on zut.agentTools.via, its fix. (With the defaults,
// code-server 1.139.1's harness settings made the route the agent plugin: every harness's tools reached.) Screenshot: <run dir>/screenshots/reach-*.png.
import assert from 'node:assert/strict';
import { openWorkbench, paletteRow, pickRow, retry, runWhenListed, screenshot, startServer, workspaceCopy } from './harness.mjs';

describe('Where zut Reaches', () => {
  let server;
  let page;

  before(async () => {
    server = await startServer({ name: 'reach', settings: { 'zut.agentTools.via': 'provider' } });
    page = await openWorkbench(server, { folder: workspaceCopy() });
  });
  after(async () => { await server?.stop(); });

  it('lists each harness with its gaps, and a gap\'s row runs its fix (the setting opened)', async () => {
    await runWhenListed(page, 'Zut: Where zut Reaches');
    await paletteRow(page, 'tools: unknown').waitFor();
    const widget = page.locator('.quick-input-widget');
    const text = (await widget.textContent()) ?? '';
    for (const s of ['VS Code: Local harness', 'VS Code: Copilot harness']) assert.ok(text.includes(s), `${s} in: ${text}`);
    assert.ok(text.includes('tools, skills'), `the Local harness's tools and skills reached in one row: ${text}`);
    assert.ok(text.includes('Set zut.agentTools.via to plugin'), `the fix named: ${text}`);
    assert.ok(!/\$\(|\]\(/.test(text), `no raw codicon or markdown text: ${text}`);
    await screenshot(page, 'reach-pick');
    await pickRow(page, 'tools: unknown');
    const settings = page.locator('.settings-editor');
    await settings.waitFor();
    await retry(async () => assert.match((await settings.textContent()) ?? '', /Agent Tools: Via/));
    await screenshot(page, 'reach-fix-setting');
  });
});
