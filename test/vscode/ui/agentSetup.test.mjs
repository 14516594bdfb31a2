// @ts-check
// UI: the agent setup commands as a person runs them, from the installed .vsix (its dist/agent-setup.js and the
// launcher it writes). "Zut: Guard Agent Tools…": pick the agent and the scope, a modal summarizes the file, the
// events and the one command before anything is written, Write merges them; run again, the modal offers Remove, which
// takes them out. "Zut: Copy MCP Client Configuration…": VS Code offered last, global extensions first; a
// notification says what was copied and where it goes (with an Open button); choosing the project's extensions asks
// first, saying the client will run the repository's code. In Restricted Mode, Guard Agent Tools offers only the user
// scope.
// Screenshots: <run dir>/screenshots/agent-setup-*.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { notification, openWorkbench, paletteRow, pickRow, retry, runWhenListed, screenshot, startServer, workspaceCopy } from './harness.mjs';

/** The open quick pick's rows now rendered: [list index, first label (not the detail), the list's size]. */
function renderedRows(page) {
  return page
    .locator('.quick-input-widget .monaco-list-row')
    .evaluateAll((rows) => rows.map((r) => [Number(r.getAttribute('data-index')), r.querySelector('.label-name')?.textContent?.trim(), Number(r.getAttribute('aria-setsize'))]));
}

/**
 * The labels of all the open quick pick's rows, in order. The list renders only the rows that fit: read, go to the
 * last as a keyboard user does (Ctrl+End, quickInput.last) until every row of the list's size was read, Ctrl+Home
 * back to the first.
 */
async function rowLabels(page) {
  const rows = new Map();
  let size = 0;
  const read = async () => {
    for (const [i, label, n] of await renderedRows(page)) {
      rows.set(i, label);
      size = n;
    }
  };
  await read();
  if (rows.size < size) {
    await page.keyboard.press('Control+End');
    await retry(async () => {
      await read();
      assert.equal(rows.size, size, `rows read of ${size}: ${JSON.stringify([...rows])}`);
    });
    await page.keyboard.press('Control+Home');
  }
  return [...rows.keys()].sort((a, b) => a - b).map((i) => rows.get(i));
}

describe('agent setup: Guard Agent Tools and Copy MCP Client Configuration', () => {
  let server;
  let page;
  let folder;

  before(async () => {
    server = await startServer({ name: 'agent-setup' });
    folder = workspaceCopy();
    page = await openWorkbench(server, { folder });
  });
  after(async () => { await server?.stop(); });

  it('Guard Agent Tools shows the file and the entries, writes them on Write, and removes exactly them', async () => {
    const file = path.join(folder, '.github', 'hooks', 'zut.json');
    await runWhenListed(page, 'Zut: Guard Agent Tools…');
    await pickRow(page, "VS Code's agent");
    await pickRow(page, 'Workspace');
    const ask = page.locator('.monaco-dialog-box', { hasText: "Let your zut guards and event subscribers see VS Code's agent's tool calls?" });
    await ask.waitFor();
    const detail = await ask.textContent();
    assert.ok(detail?.includes(`File: ${file}`), detail ?? '');
    assert.ok(detail?.includes('Events: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop, SubagentStop'), detail ?? '');
    assert.match(detail ?? '', /Command: '[^']*\/globalStorage\/zut\.zut-vscode\/bin\/zut-host' hook --agent vscode <event>/);
    assert.ok(!detail?.includes('"type":"command"'), 'no raw JSON in the dialog');
    await screenshot(page, 'agent-setup-guard-plan');
    assert.ok(!fs.existsSync(file), 'nothing written before Write');
    await ask.locator('.monaco-button', { hasText: /^Write$/ }).click();
    await retry(async () => assert.ok(fs.existsSync(file), 'written'));
    const written = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.deepEqual(Object.keys(written.hooks).sort(), ['PostToolUse', 'PreToolUse', 'SessionStart', 'Stop', 'SubagentStop', 'UserPromptSubmit']);
    const launcher = written.hooks.PreToolUse[0].command.match(/^'([^']*)'/)[1];
    assert.ok(fs.statSync(launcher).mode & 0o100, `the launcher is executable: ${launcher}`);
    await notification(page, `VS Code's agent's tool calls now go through your zut guards (hooks in ${file})`);
    await screenshot(page, 'agent-setup-guard-written');
    await page.keyboard.press('Escape');

    await runWhenListed(page, 'Zut: Guard Agent Tools…');
    await pickRow(page, "VS Code's agent");
    await pickRow(page, 'Workspace');
    const present = page.locator('.monaco-dialog-box', { hasText: `VS Code's agent: zut hooks are in ${file}.` });
    await present.waitFor();
    await screenshot(page, 'agent-setup-guard-remove');
    await present.locator('.monaco-button', { hasText: /^Remove$/ }).click();
    await retry(async () => assert.ok(!fs.existsSync(file), 'removed'));
  });

  it('Copy MCP Client Configuration asks the client (VS Code last) and which extensions (global first), and says what it copied', async () => {
    await runWhenListed(page, 'Zut: Copy MCP Client Configuration…');
    await paletteRow(page, 'Cursor').waitFor();
    const clients = await rowLabels(page);
    // The agents set up through rows (found on this machine first: which are depends on the machine), the snippets
    // in their order, VS Code last; Cursor once (its row, not a snippet too).
    const snippets = clients.filter((c) => ['Claude Desktop', 'Command line', 'VS Code (mcp.json)'].includes(c));
    assert.deepEqual(snippets, ['Claude Desktop', 'Command line', 'VS Code (mcp.json)'], clients.join(', '));
    assert.equal(clients.at(-1), 'VS Code (mcp.json)');
    for (const agent of ['Codex CLI', 'Gemini CLI', 'opencode', 'Cursor', 'Cline CLI', 'Qwen Code']) assert.equal(clients.filter((c) => c === agent).length, 1, `${agent} offered once: ${clients.join(', ')}`);
    await pickRow(page, 'Claude Desktop');
    await paletteRow(page, 'Only your global extensions').waitFor();
    const choices = await rowLabels(page);
    assert.equal(choices[0], 'Only your global extensions', 'the safe choice first (Enter picks it)');
    await page.keyboard.press('Enter');
    const note = (await notification(page, 'Copied the Claude Desktop configuration')).first();
    const text = (await note.textContent()) ?? '';
    assert.match(text, /Only your global extensions start/);
    await screenshot(page, 'agent-setup-copy-mcp');
    await page.keyboard.press('Escape');

    // The project's extensions: a modal says plainly what that means before anything is copied.
    await runWhenListed(page, 'Zut: Copy MCP Client Configuration…');
    await pickRow(page, 'Claude Desktop');
    await pickRow(page, "Also this folder's extensions, as they are now");
    const ask = page.locator('.monaco-dialog-box', { hasText: "Claude Desktop will run this repository's code on every start, without asking you." });
    await ask.waitFor();
    assert.match((await ask.textContent()) ?? '', /pinned to their content now/);
    await screenshot(page, 'agent-setup-copy-mcp-project');
    await ask.locator('.monaco-button', { hasText: /^Cancel$/ }).click();
  });
});

describe('agent setup in Restricted Mode', () => {
  let server;
  let page;

  before(async () => {
    server = await startServer({ name: 'agent-setup-untrusted', trust: false });
    page = await openWorkbench(server, { folder: workspaceCopy() });
  });
  after(async () => { await server?.stop(); });

  it('Guard Agent Tools offers only the user scope and says why', async () => {
    await runWhenListed(page, 'Zut: Guard Agent Tools…');
    await pickRow(page, "VS Code's agent");
    await page.locator('.quick-input-widget .quick-input-box input[placeholder="Where? (Workspace needs a trusted workspace)"]').waitFor();
    await paletteRow(page, 'User').waitFor();
    assert.equal(await page.locator('.quick-input-widget .monaco-list-row').count(), 1, 'only User is offered');
    await screenshot(page, 'agent-setup-untrusted-scope');
    await page.keyboard.press('Escape');
  });
});
