// Rows 2 and 4 of `npm run bench:ui`, measured inside the extension host through the bench agent.

/**
 * Row 2: `zut.newExtension` writes a `lang` extension; then `trials` interleaved pairs of
 *  - ours: edit its main file (the reply changes) and save it → `invokeCommand` answers with the new text, and
 *  - baseline: `restart(name)` → the command answers (the same extension's cold start).
 * One warm-up pair first (reported as firstSave / firstRestart). The last new text is also checked through
 * `zut.command.<name>`. Returns { save: ms[], restart: ms[], firstSave, firstRestart, viaCommand }.
 */
export function measureSave(agent, { lang, name, trials }) {
  return agent.call(`
const h = await zut();
const made = await vscode.commands.executeCommand('zut.newExtension', { lang: args.lang, name: args.name, where: 'project' });
await until(() => running(h, made.name), 120000);
const answer = async (want) => { try { const r = await h.invokeCommand(made.command, 'x'); return String(r.display).includes(want); } catch { return false; } };
await until(() => answer('from'), 60000);
const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(made.mainFile));
const re = /Hello(#\\d+)? from/;
const out = { save: [], restart: [] };
const edit = async (k) => {
  // Right after the file was written, VS Code may still sync the document with the disk and drop an edit: retried.
  for (let attempt = 0; ; attempt++) {
    const text = doc.getText();
    const i = text.search(re);
    const m = re.exec(text);
    const e = new vscode.WorkspaceEdit();
    e.replace(doc.uri, new vscode.Range(doc.positionAt(i), doc.positionAt(i + m[0].length)), 'Hello#' + k + ' from');
    if (!(await vscode.workspace.applyEdit(e))) throw new Error('edit refused');
    if (doc.isDirty && doc.getText().includes('Hello#' + k + ' from')) return;
    if (attempt >= 5) throw new Error('the edit left ' + made.mainFile + ' clean');
    await sleep(300);
  }
};
const save = async (k) => {
  await edit(k);
  let t0 = epoch();
  if (!(await vscode.workspace.save(doc.uri))) {
    // The file changed on disk since it was read (a save conflict): take the disk's version and try again.
    await vscode.commands.executeCommand('workbench.action.files.revert', doc.uri);
    await edit(k);
    t0 = epoch();
    if (!(await vscode.workspace.save(doc.uri))) throw new Error('saving ' + made.mainFile + ' failed twice');
  }
  await until(() => answer('Hello#' + k + ' from'), 60000, 2);
  out.save.push(epoch() - t0);
};
const restart = async () => {
  const t0 = epoch();
  await h.restart(made.name);
  await until(() => answer('from'), 60000, 2);
  out.restart.push(epoch() - t0);
};
// Warm-up, reported apart: the first save of a file also pays VS Code's first-time work (a .ts file activates the
// TypeScript extension in this same extension host).
await save(1000);
await restart();
out.firstSave = out.save.pop();
out.firstRestart = out.restart.pop();
for (let k = 0; k < args.trials; k++) {
  if (k % 2 === 0) { await save(k); await restart(); } else { await restart(); await save(k); }
}
const last = await vscode.commands.executeCommand('zut.command.' + made.command, 'x');
out.viaCommand = last && last.display;
await vscode.commands.executeCommand('workbench.action.closeAllEditors');
require('fs').rmSync(made.dir, { recursive: true, force: true });
await vscode.commands.executeCommand('zut.reload');
return out;
`, { lang, name, trials });
}

/**
 * Row 4: `trials` interleaved pairs of
 *  - ours: `@zut call uibench_echo {"i":k}` with the scripted model, from the model's tool-call part to its next
 *    request (the tool's receive/send times split it into "to the tool_call frame" and "from the tool_result"), and
 *  - baseline: `invokeTool('uibench_echo')` (the guarded path: event, guards, call) from the extension host;
 * and, as information, VS Code's own hops for one bare `sendRequest` of the same model (no @zut).
 */
export function measureChat(agent, { trials }) {
  return agent.call(`
const h = await zut();
await until(() => running(h, 'uibench'));
const MODEL = { vendor: 'zut-test', id: 'scripted' };
const requests = () => vscode.commands.executeCommand('zutTest.requests');
const out = { round: [], toFrame: [], fromResult: [], direct: [], lmRequest: [], lmStreamEnd: [] };
const [model] = await vscode.lm.selectChatModels(MODEL);
// VS Code's own hops for one model call (no @zut): sendRequest → the provider has it, and the reply part → the
// caller's stream ended. A tool round has one of each (the tool-call reply ends, the next request starts).
const bareLm = async () => {
  const before = (await requests()).length;
  const t0 = epoch();
  const r = await model.sendRequest([vscode.LanguageModelChatMessage.User('call uibench_echo {}')], {}, new vscode.CancellationTokenSource().token);
  for await (const _ of r.stream) { /* drain */ }
  const t1 = epoch();
  const req = (await requests())[before];
  out.lmRequest.push(req.atHr - t0);
  out.lmStreamEnd.push(t1 - req.toolCallAt);
};
const viaChat = async (k) => {
  const before = (await requests()).length;
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@zut call uibench_echo {"i":' + k + '}', modelSelector: MODEL });
  const reqs = await until(async () => { const r = (await requests()).slice(before); return r.length >= 2 && r; }, 60000, 5);
  const call = reqs[0];
  const next = reqs[1];
  const result = next.messages.at(-1).parts.find((p) => p.type === 'toolResult');
  const stamps = JSON.parse(result.content.map((c) => c.value).join(''));
  out.round.push(next.atHr - call.toolCallAt);
  out.toFrame.push(stamps.recv - call.toolCallAt);
  out.fromResult.push(next.atHr - stamps.sent);
  await sleep(200);   // the response finishes streaming before the next request
};
const direct = async (k) => {
  const t0 = epoch();
  const r = await h.invokeTool('uibench_echo', { i: k }, { session: { id: 'bench-ui' }, origin: 'chat' });
  out.direct.push(epoch() - t0);
  if (r.isError) throw new Error('uibench_echo failed: ' + JSON.stringify(r));
};
await viaChat(-1); await direct(-1); await bareLm();
for (const k of Object.keys(out)) out[k].length = 0;   // warm-up done
for (let k = 0; k < args.trials; k++) {
  if (k % 2 === 0) { await viaChat(k); await direct(k); } else { await direct(k); await viaChat(k); }
  await bareLm();
}
return out;
`, { trials });
}
