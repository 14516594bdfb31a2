// @ts-check
// Shared helpers of the in-host suites (not a test file: index.js loads only *.test.js).
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const { writeShExtension } = require('../../helpers/fakeExtension');

/**
 * Polls `fn` (sync or async) until it returns something truthy; fails naming `what` after `ms` (a function: called
 * then, to say what was seen instead).
 */
async function eventually(fn, what, ms = 20000, every = 100) {
  const end = Date.now() + ms;
  for (;;) {
    const last = await fn();
    if (last) return last;
    if (Date.now() > end) assert.fail(`timed out waiting for ${typeof what === 'function' ? await what() : what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

// @zut through `workbench.action.chat.open` with the scripted test model (test/vscode/fixtures/scripted-model).
const MODEL = { vendor: 'zut-test', id: 'scripted' };
/** The requests the scripted model has received so far. */
/** @type {(...a: any[]) => Thenable<any>} */ const modelRequests = () => require('vscode').commands.executeCommand('zutTest.requests');
/** @type {(...a: any[]) => Thenable<any>} */ const recentResponses = () => require('vscode').commands.executeCommand('zut.chat.recentResponses');
/** A response as streamed, with markdown escapes removed (extension text is escaped when shown). */
const shownText = (r) => r.shown.join('').replace(/\\([!-/:-@[-`{-~])/g, '$1');

/**
 * Sends `@zut <query>`; resolves with the finished response, the model requests it made and its shown text. Each
 * exchange is appended to <run dir>/chat-transcripts.jsonl.
 */
async function askZut(query, ms = 30000) {
  const vscode = require('vscode');
  const before = (await modelRequests()).length;
  const seen = new Set(await recentResponses());
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@zut ${query}`, modelSelector: MODEL });
  const response = await eventually(async () => (await recentResponses()).find((r) => !seen.has(r)), `the @zut response to "${query}"`, ms);
  const requests = (await modelRequests()).slice(before);
  const out = process.env.ZUT_TEST_RESULT_FILE && path.join(path.dirname(process.env.ZUT_TEST_RESULT_FILE), 'chat-transcripts.jsonl');
  if (out) fs.appendFileSync(out, JSON.stringify({ query, modelRequests: requests, response }) + '\n');
  return { response, requests, text: shownText(response) };
}

/** Names of the extensions under `<folder>/.zut/extensions` whose manifest does not say `enabled: false`, sorted. */
function enabledExtensions(folder) {
  const dir = path.join(folder, '.zut', 'extensions');
  return fs.readdirSync(dir).filter((d) => {
    try { return JSON.parse(fs.readFileSync(path.join(dir, d, 'extension.json'), 'utf8')).enabled !== false; } catch { return false; }
  }).sort();
}

/**
 * Writes a minimal sh zut extension `<root>/<name>` (one command `<name>-hi`), its manifest last so the watcher
 * sees a complete extension; `manifestExtra` is merged into extension.json.
 */
function writeShExt(root, name, comment, manifestExtra = {}) {
  return writeShExtension(root, name, { comment, command: 'hi', manifest: { version: '1.0.0', language: 'sh', ...manifestExtra } });
}

/**
 * Whether this VS Code reads `contributes.chatPlugins`, as the extension decides it (src/vscode/agentRoute.ts
 * CHAT_PLUGINS_SINCE, 1.139): on an older one zut's agent plugin is never the route and the provider serves.
 */
function chatPluginsSupported() {
  const [major, minor] = require('vscode').version.split('.').map((n) => Number.parseInt(n, 10));
  return major > 1 || (major === 1 && minor >= 139);
}

module.exports = { MODEL, askZut, chatPluginsSupported, enabledExtensions, eventually, modelRequests, recentResponses, shownText, writeShExt };
