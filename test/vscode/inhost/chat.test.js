// @ts-check
// @zut inside a real VS Code: requests go through `workbench.action.chat.open` with the scripted test model
// (test/vscode/fixtures/scripted-model, vendor zut-test) against the example extensions of the workspace.
// Observations: the model's recorded requests (`zutTest.requests`) and the responses as streamed
// (`zut.chat.recentResponses`). Each exchange is also written to <run dir>/chat-transcripts.jsonl.
'use strict';
const assert = require('assert');
const fs = require('fs');
const vscode = require('vscode');

const { MODEL, askZut, eventually, modelRequests, recentResponses: recent, shownText } = require('./util');

/** Polls `check` until it returns something truthy (the shared helper, argument order of this file). */
const waitFor = (what, check, ms = 30000) => eventually(check, what, ms);

/** Sends `@zut <query>`; resolves with the finished response and the model requests it made. */
const ask = (query) => askZut(query);

/** The parts of the last message of a recorded model request. */
const lastParts = (req) => req.messages[req.messages.length - 1].parts;

suite('@zut chat participant', function () {
  let host;

  suiteSetup(async function () {
    const scripted = vscode.extensions.getExtension('zut-test.scripted-model');
    assert.ok(scripted, 'the scripted model dev extension is loaded');
    await scripted.activate();
    const api = await vscode.extensions.getExtension('zut.zut-vscode').activate();
    host = api.host;
    await waitFor('weather, guard and snippets to be ready', () =>
      host.tools().some((t) => t.name === 'weather') &&
      host.commands().some((c) => c.name === 'wordcount') &&
      host.extensions().some((e) => e.name === 'guard' && e.state === 'running'));
    const models = await vscode.lm.selectChatModels({ vendor: MODEL.vendor });
    assert.deepStrictEqual(models.map((m) => m.id), ['scripted']);
  });

  test('the weather tool is called and its text and image reach the model', async function () {
    const { response, requests, text } = await ask('call weather {"city":"Berlin"}');
    assert.strictEqual(requests.length, 2, JSON.stringify(requests, null, 1));
    assert.ok(requests[0].tools.includes('weather'), `tools offered: ${requests[0].tools}`);
    assert.ok(!requests[0].tools.includes('weather_alerts'), 'deferred tools are not offered');
    const result = lastParts(requests[1]).find((p) => p.type === 'toolResult');
    assert.ok(result, 'the second request carries the tool result');
    const [textPart, image] = result.content;
    assert.match(textPart.value, /^Berlin: 16°C, fog/);
    assert.strictEqual(image.type, 'data', `image part: ${JSON.stringify(image)}`);
    assert.strictEqual(image.mimeType, 'image/png');
    assert.ok(image.bytes > 50);
    assert.match(text, /progress: Running `weather` \(`weather`\)…/);
    assert.match(text, /✓ `weather` \(`weather`\): Berlin: 16°C, fog/);
    assert.match(text, /model got: Berlin: 16°C, fog.*\[image image\/png \d+ bytes\]/s);
    // guard's hidden context went to the model, never to the user
    assert.ok(JSON.stringify(requests[0]).includes('Project policy (from guard)'));
    assert.ok(!text.includes('Project policy'));
    assert.strictEqual(response.metadata.zut.turn >= 1, true);
    // The tool's details are weather's state on this conversation's branch, kept in workspace storage (what the
    // participant reads back when the window reloads).
    const persisted = await waitFor('the state in workspace storage', async () => {
      /** @type {any} */ const p = await vscode.commands.executeCommand('zut.test.persistedChatState');
      return p.state && p.state[response.metadata.zut.branch] && p;
    });
    assert.strictEqual(persisted.state[response.metadata.zut.branch].weather.lastCity, 'Berlin');
    assert.ok(JSON.stringify(persisted.sessions).includes(response.metadata.zut.session), 'the session is kept too');
  });

  test('guard blocks rm -rf: the tool does not run and the model gets the reason', async function () {
    const { requests, text } = await ask('call weather {"city":"rm -rf /"}');
    const result = lastParts(requests[1]).find((p) => p.type === 'toolResult');
    assert.match(result.content.map((c) => c.value).join(''), /refused: matches danger pattern "rm -rf"/);
    assert.match(text, /⛔ `weather` \(`weather`\): blocked by guard/);
    assert.ok(!text.includes('progress: Running `weather`'), 'a blocked tool never runs');
  });

  test('guard redacts a secret: the user sees [redacted], the conversation keeps what the model said', async function () {
    const { response, text } = await ask('say your key is sk-ant-abcdefghijkl');
    assert.ok(!text.includes('sk-ant-abcdefghijkl'), text);
    assert.match(text, /your key is \[redacted\]/);
    const said = response.metadata.zut.messages.flatMap((m) => m.parts).map((p) => p.text || '').join('');
    assert.ok(said.includes('your key is sk-ant-abcdefghijkl'));
  });

  test('@zut /wordcount runs the extension command (display, shown verbatim)', async function () {
    const { requests, text } = await ask('/wordcount one two three');
    assert.strictEqual(requests.length, 0, 'display does not call the model');
    assert.match(text, /```text\n3 words, 13 characters, 1 line\n```/);
  });

  test('@zut /explain runs a model turn with the prompt the command returned', async function () {
    const { requests, text } = await ask('/explain recursion');
    assert.strictEqual(requests.length, 1);
    assert.match(text, /echo: Explain recursion to an experienced developer/);
  });

  test('a prompt response run from the palette (zut.command.explain) becomes a new @zut request', async function () {
    await ask('/wordcount keep the scripted model selected');
    const before = (await modelRequests()).length;
    const seen = new Set(await recent());
    await vscode.commands.executeCommand('zut.command.explain', 'closures');
    const response = await waitFor('the @zut response to the palette prompt', async () => (await recent()).find((r) => !seen.has(r)));
    const requests = (await modelRequests()).slice(before);
    assert.strictEqual(requests.length, 1, 'one model request');
    assert.match(shownText(response), /echo: Explain closures to an experienced developer/);
  });

  test('@zut /help lists extension commands and tools', async function () {
    const { text } = await ask('/help');
    assert.match(text, /\/wordcount/);
    assert.match(text, /weather {2}Get the current weather/);
    assert.match(text, /weather_alerts .*deferred/);
  });

  test('model errors are shown with their code', async function () {
    const { text } = await ask('fail NoPermissions');
    assert.match(text, /\*\*Error\.\*\* Model error \(NoPermissions\): scripted failure/, text);
  });

  test("Stop cancels the running tool: tool_cancel reaches the extension and the response says so", async function () {
    const before = (await modelRequests()).length;
    const seen = new Set(await recent());
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@zut call forecast {"city":"Tokyo","days":7}', modelSelector: MODEL });
    await waitFor('the tool call', async () => (await modelRequests()).length > before);
    // Stop while weather is working on the call (its tool_call is in flight: a request awaiting its reply).
    await waitFor('forecast to be running in weather', () => host.extensions().find((e) => e.name === 'weather').pending > 0);
    await vscode.commands.executeCommand('workbench.action.chat.cancel');
    const response = await waitFor('the cancelled response', async () => (await recent()).find((r) => !seen.has(r)));
    const text = shownText(response);
    assert.match(text, /◼ `forecast` \(`weather`\): cancelled/, text);
    assert.strictEqual((await modelRequests()).length, before + 1, 'no model call after Stop');
    const log = host.extensions().find((e) => e.name === 'weather').logPath;
    await waitFor('weather to log the cancellation', () => fs.existsSync(log) && /forecast \S+ cancelled after \d\/7 days/.test(fs.readFileSync(log, 'utf8')));
  });

  test('notes an extension sends during a @zut turn appear in that response', async function () {
    const { text } = await ask('/notify warn disk almost full');
    assert.match(text, /⚠ \[progress\] disk almost full/, text);
  });

  test('the notes of the last turn clear when the user sends the next @zut prompt', async function () {
    /** @type {(...a: any[]) => Thenable<any>} */ const snapshot = () => vscode.commands.executeCommand('zut.test.snapshot');
    const progressNotes = async () => ((await snapshot()).widgets.find((w) => w.ext === 'progress') || { notes: [] }).notes;
    await vscode.commands.executeCommand('zut.command.notify', 'info a note from before the prompt');
    await waitFor('the note in the Widgets view', async () => (await progressNotes()).some((n) => n.text === 'a note from before the prompt'));
    await ask('/help');
    assert.deepStrictEqual(await progressNotes(), []);
  });

  test('submit during a turn is shown, queued, and runs as the next @zut request', async function () {
    const seen = new Set(await recent());
    const { text } = await ask('/submit say queued from a turn');
    assert.match(text, /\[progress\] queued: say queued from a turn/, text);
    const next = await waitFor('the queued request', async () =>
      (await recent()).find((r) => !seen.has(r) && r.prompt === 'say queued from a turn'));
    assert.match(shownText(next), /queued from a turn/);
  });

  test('submit outside a turn opens a @zut request right away', async function () {
    await vscode.commands.executeCommand('zut.runCommand', 'submit', 'say submitted outside');
    const r = await waitFor('the submitted request', async () => (await recent()).find((x) => x.prompt === 'say submitted outside'));
    assert.match(shownText(r), /submitted outside/);
  });

  test('one conversation is one session: the id stays, turns count up', async function () {
    const all = await recent();
    const metas = all.map((r) => r.metadata.zut);
    assert.ok(metas.length >= 2);
    const last = metas[metas.length - 1];
    const prev = metas[metas.length - 2];
    assert.strictEqual(last.session, prev.session);
    assert.strictEqual(last.branch, prev.branch);
    assert.strictEqual(last.turn, prev.turn + 1);
  });
});
