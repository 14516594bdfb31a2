// Rows 2 and 4 of `npm run bench:ui`, measured inside the extension host through the bench agent.
import path from 'node:path';

/**
 * Row 4: how long the scripted model thinks before its tool-call part (ms). A real model takes hundreds of ms to
 * seconds before its first part; with none, each round started while the page was still drawing the chat that had
 * just opened, and that drawing (0.3–0.7 s a round, pairwise ratios 0.7–2.2) set both sides' rounds. With 500 ms (the
 * same for both sides) rounds fell to 65–150 ms on this machine (2026-12-08); a real model's first part takes longer.
 */
export const MODEL_THINK_MS = 500;

/**
 * Row 2: `zut.newExtension` writes a `lang` extension; then `trials` interleaved triples of
 *  - ours: edit its main file (the reply changes) and save it → once it runs again, `invokeCommand` answers with the
 *    new text;
 *  - `restart(name)` → the command answers (the same extension's cold start);
 *  - the floor: the same edit saved in a copy of the main file outside every extension's directory, and
 *    `restart(name)` at that save's event → the command answers (a save VS Code reacts to alike, then a restart).
 * One warm-up triple first (firstSave / firstRestart / firstSiblingRestart). The last new text is also checked through
 * `zut.command.<name>`. Returns { save, restart, siblingRestart: ms[] and their hops, the firsts, viaCommand }.
 */
export function measureSave(agent, { lang, name, trials }) {
  return agent.call(`
const h = await zut();
const made = await vscode.commands.executeCommand('zut.newExtension', { lang: args.lang, name: args.name, where: 'project' });
await until(() => running(h, made.name), 120000);
const answer = async (want) => { try { const r = await h.invokeCommand(made.command, 'x'); return String(r.display).includes(want); } catch { return false; } };
await until(() => answer('from'), 60000);
const uri = vscode.Uri.file(made.mainFile);
// The floor's save: a copy of the main file outside every extension's directory (the workspace folder's own
// save-floor-<name>/), saved with the same edit. VS Code reacts to it as to the main file (the language's extension,
// git, the file watcher) and nothing of ours restarts; the restart is asked for at its save event.
const fsx = require('fs');
const pathx = require('path');
const sibling = vscode.Uri.file(pathx.join(vscode.workspace.workspaceFolders[0].uri.fsPath, 'save-floor-' + made.name, pathx.basename(made.mainFile)));
fsx.mkdirSync(pathx.dirname(sibling.fsPath), { recursive: true });
fsx.copyFileSync(made.mainFile, sibling.fsPath);
let restartAtSave;
const re = /Hello(#[\\w]+)? from/;
const out = { save: [], restart: [], saveHops: [], restartHops: [], siblingRestart: [], siblingRestartHops: [], editAttempts: 0 };
// Hop marks (epoch ms) of the trial in progress: VS Code's save event, the extension leaving 'running' (the host
// stopped it) and 'running' again (the new process said ready).
let marks = {};
const subs = [
  vscode.workspace.onDidSaveTextDocument((d) => {
    if (d.uri.fsPath === made.mainFile) marks.saved ??= epoch();
    if (d.uri.fsPath === sibling.fsPath && restartAtSave === null) {
      marks.saved ??= epoch();
      restartAtSave = h.restart(made.name);
    }
  }),
  h.onDidChangeExtensions(() => {
    const e = h.extensions().find((x) => x.name === made.name);
    if (!e || marks.t0 === undefined) return;
    if (e.state !== 'running') marks.down ??= epoch();
    else if (marks.down !== undefined) marks.up ??= epoch();
  }),
];
const edit = async (k, uri = vscode.Uri.file(made.mainFile)) => {
  // Always through a fresh document object: the one opened earlier can be closed under us (its isDirty then stays
  // false whatever is applied: 'the edit left main.ts clean'), and right after the file was written VS Code may
  // still sync the document with the disk and drop an edit: retried, each retry with a text of its own (the same
  // replacement again would change nothing and leave the document clean for good). Shown in an editor (kept open:
  // a document no editor shows can be closed under us). Returns the tag the new text carries.
  for (let attempt = 0; ; attempt++) {
    const tag = attempt ? k + 'r' + attempt : String(k);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: false, preserveFocus: true, viewColumn: vscode.ViewColumn.One });
    const text = doc.getText();
    const m = re.exec(text);
    if (!m) throw new Error(uri.fsPath + ' has no "Hello from" to change');
    const e = new vscode.WorkspaceEdit();
    e.replace(uri, new vscode.Range(doc.positionAt(m.index), doc.positionAt(m.index + m[0].length)), 'Hello#' + tag + ' from');
    const applied = await vscode.workspace.applyEdit(e);
    const now = await vscode.workspace.openTextDocument(uri);
    if (applied && now.isDirty && now.getText().includes('Hello#' + tag + ' from')) return tag;
    out.editAttempts++;
    if (attempt >= 10) throw new Error('the edit left ' + uri.fsPath + ' clean (applied ' + applied + ', dirty ' + now.isDirty + ')');
    await sleep(300);
  }
};
const hopsOf = (t0, tAnswered) => ({ saved: marks.saved !== undefined ? marks.saved - t0 : null,
  down: marks.down !== undefined ? marks.down - (marks.saved ?? t0) : null,
  up: marks.up !== undefined && marks.down !== undefined ? marks.up - marks.down : null,
  answered: marks.up !== undefined ? tAnswered - marks.up : null });
const save = async (k) => {
  let tag = await edit(k);
  marks = {};
  let t0 = epoch();
  marks.t0 = t0;
  if (!(await vscode.workspace.save(uri))) {
    // The file changed on disk since it was read (a save conflict): take the disk's version and try again.
    await vscode.commands.executeCommand('workbench.action.files.revert', uri);
    tag = await edit(k);
    marks = {};
    t0 = epoch();
    marks.t0 = t0;
    if (!(await vscode.workspace.save(uri))) throw new Error('saving ' + made.mainFile + ' failed twice');
  }
  // Asked once it runs again, as the restart trials ask after their restart: a command sent earlier reaches the old
  // process, and one every 2 ms keeps it busy when its shutdown comes (a sh extension answers one in ~60 ms).
  await until(() => marks.up !== undefined, 60000, 2);
  await until(() => answer('Hello#' + tag + ' from'), 60000, 2);
  const t1 = epoch();
  out.save.push(t1 - t0);
  out.saveHops.push(hopsOf(t0, t1));
  marks = {};
};
const restart = async () => {
  marks = {};
  const t0 = epoch();
  marks.t0 = t0;
  await h.restart(made.name);
  await until(() => answer('from'), 60000, 2);
  const t1 = epoch();
  out.restart.push(t1 - t0);
  out.restartHops.push(hopsOf(t0, t1));
  marks = {};
};
// The floor's trial: the same edit saved in the copy, and a restart at its save event.
const siblingRestart = async (k) => {
  await edit(k, sibling);
  marks = {};
  const t0 = epoch();
  marks.t0 = t0;
  restartAtSave = null;
  if (!(await vscode.workspace.save(sibling))) throw new Error('saving ' + sibling.fsPath + ' failed');
  await until(() => restartAtSave !== null, 10000, 1);
  await restartAtSave;
  restartAtSave = undefined;
  await until(() => answer('from'), 60000, 2);
  const t1 = epoch();
  out.siblingRestart.push(t1 - t0);
  out.siblingRestartHops.push(hopsOf(t0, t1));
  marks = {};
};
// Warm-up, reported apart: the first save of a file also pays VS Code's first-time work (a .ts file activates the
// TypeScript extension in this same extension host).
await save(1000);
await restart();
await siblingRestart(1000);
out.firstSave = out.save.pop();
out.firstRestart = out.restart.pop();
out.firstSiblingRestart = out.siblingRestart.pop();
out.saveHops.pop();
out.restartHops.pop();
out.siblingRestartHops.pop();
// Each trial runs the three in a rotating order, so a drift in the machine's load falls on each alike.
const order = [save, restart, siblingRestart];
for (let k = 0; k < args.trials; k++) {
  for (let j = 0; j < order.length; j++) await order[(k + j) % order.length](k);
}
const last = await vscode.commands.executeCommand('zut.command.' + made.command, 'x');
out.viaCommand = last && last.display;
for (const d of subs) d.dispose();
await vscode.commands.executeCommand('workbench.action.closeAllEditors');
fsx.rmSync(made.dir, { recursive: true, force: true });
fsx.rmSync(pathx.dirname(sibling.fsPath), { recursive: true, force: true });
await vscode.commands.executeCommand('zut.reload');
return out;
`, { lang, name, trials });
}

/**
 * Row 4: `trials` interleaved pairs of
 *  - ours: `@zut call uibench_echo {"i":k}` with the scripted model, from the model's tool-call part to its next
 *    request (the tool's receive/send times split it into "to the tool_call frame" and "from the tool_result"), and
 *  - baseline: `invokeTool('uibench_echo')` (the guarded path: event, guards, call) from the extension host;
 *  - the same round through \`@benchmin\` (bench/ui/agent): a minimal participant calling the same guarded path by
 *    hand, i.e. VS Code's own chat plumbing for one tool round with none of @zut's loop;
 * and, as information, VS Code's own hops for one bare \`sendRequest\` of the same model (no chat request).
 * The model thinks MODEL_THINK_MS before each tool call; each round starts once the previous participant's handler
 * returned; \`split\` has each round's time by whose it was (splitOf, from the participants' round marks).
 * With ZUT_BENCH_PROFILE_DIR set (by hand), the rounds run one participant at a time under a CPU profile instead.
 */
export function measureChat(agent, { trials }) {
  return agent.call(`
const h = await zut();
await until(() => running(h, 'uibench'));
const MODEL = { vendor: 'zut-test', id: 'scripted' };
const requests = () => vscode.commands.executeCommand('zutTest.requests');
const out = { round: [], toFrame: [], fromResult: [], minRound: [], minToFrame: [], minFromResult: [], minAllRound: [], minAllToFrame: [], minAllFromResult: [], direct: [], lmRequest: [], lmStreamEnd: [], split: [] };
// Where a round's time went, from the participant's marks (zut-vscode's: src/host/chat/roundMarks.ts, on with
// ZUT_BENCH_MARKS=1; @benchmin's: the bench agent's) and the model's and the tool's clocks (all epoch ms, one process):
//   VS Code  = tool-call part → the participant has it, → its stream ended, its next request → the model has it;
//   the call = the guarded call to the child and back, less the child's own time (the same path on both sides);
//   code     = the participant's own code between those: stream ended → call started, call answered → next request.
const MARKS = Symbol.for('zut.bench.roundMarks');
const splitOf = (marks, call, stamps, next) => {
  const at = (name, after) => marks.find(([n, t]) => n === name && t >= after)?.[1];
  const part = at('modelPart', call.toolCallAt), end = part && at('modelEnd', part), start = end && at('toolStart', end);
  const resolved = start && at('toolResolved', stamps.sent), send = resolved && at('modelSend', resolved);
  if (!send) return undefined;
  return { vscode: part - call.toolCallAt + (end - part) + (next.atHr - send), call: stamps.recv - start + (resolved - stamps.sent),
    code: start - end + (send - resolved), round: next.atHr - call.toolCallAt, relayIn: part - call.toolCallAt, streamEnd: end - part, relayOut: next.atHr - send };
};
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
// One chat request through participant \`who\` (zut: @zut's loop; benchmin: the bench agent's minimal participant).
let seq = 0;
const viaChat = async (k, who = 'zut', allTools = false) => {
  globalThis.__zutBenchMinAllTools = allTools;
  const before = (await requests()).length;
  const prompt = 'call uibench_echo {"i":' + (++seq) + '}';
  // Each round in a chat of its own: in one chat of 180 rounds the page re-measures every earlier response (the
  // chat list's heights) and the workbench renderer, busy nearly all of each round, sets the pace of both sides.
  globalThis[MARKS] = []; globalThis.__zutBenchMinMarks = [];
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@' + who + ' ' + prompt, modelSelector: MODEL });
  const reqs = await until(async () => { const r = (await requests()).slice(before); return r.length >= 2 && r; }, 60000, 5);
  // The participant's handler has returned (its response is complete) before the next round starts, whichever it is.
  await until(async () => (who === 'zut' ? (await vscode.commands.executeCommand('zut.chat.recentResponses')).at(-1)?.prompt === prompt : globalThis.__zutBenchMinDone === prompt), 60000, 5);
  const call = reqs[0];
  const next = reqs[1];
  const result = next.messages.at(-1).parts.find((p) => p.type === 'toolResult');
  const stamps = JSON.parse(result.content.map((c) => c.value).join(''));
  const pre = who === 'zut' ? '' : allTools ? 'minAll' : 'min';
  out[pre ? pre + 'Round' : 'round'].push(next.atHr - call.toolCallAt);
  out[pre ? pre + 'ToFrame' : 'toFrame'].push(stamps.recv - call.toolCallAt);
  out[pre ? pre + 'FromResult' : 'fromResult'].push(next.atHr - stamps.sent);
  out.split.push({ who: pre || 'zut', ...splitOf(pre ? globalThis.__zutBenchMinMarks : globalThis[MARKS] ?? [], call, stamps, next) });
  if (pre === 'minAll') out.toolsOffered = { zut: null, minAll: call.tools.length };
  if (!pre) out.zutToolsOffered = call.tools.length;
  await sleep(200);   // the page draws the finished response before the next round
};
const direct = async (k) => {
  const t0 = epoch();
  const r = await h.invokeTool('uibench_echo', { i: k }, { session: { id: 'bench-ui' }, origin: 'chat' });
  out.direct.push(epoch() - t0);
  if (r.isError) throw new Error('uibench_echo failed: ' + JSON.stringify(r));
};
// The model thinks before its tool call (MODEL_THINK_MS), as a real one does: the page has drawn the new chat and the
// request by then, on both sides, and the round measures the round, not the chat's opening still being drawn.
await vscode.commands.executeCommand('zutTest.toolCallDelay', args.thinkMs);
await viaChat(-1); await viaChat(-1, 'benchmin'); await viaChat(-1, 'benchmin', true); await direct(-1); await bareLm();
for (const k of Object.keys(out)) if (Array.isArray(out[k])) out[k].length = 0;   // warm-up done
// ZUT_BENCH_PROFILE_DIR (by hand): a CPU profile of this extension host over the rounds, one participant at a time,
// written there as exthost-chat-<who>-<epoch ms>.cpuprofile with its marks (bench/ui/profileSplit.mjs --before 0).
const profiled = async (who, rounds) => {
  const inspector = require('inspector');
  const session = new inspector.Session();
  session.connect();
  const post = (m, p) => new Promise((res, rej) => session.post(m, p, (e, r) => (e ? rej(e) : res(r))));
  await post('Profiler.enable'); await post('Profiler.setSamplingInterval', { interval: 200 }); await post('Profiler.start');
  const at = epoch();
  for (const r of rounds) await r();
  const end = epoch();
  const { profile } = await post('Profiler.stop');
  session.disconnect();
  const fs = require('fs');
  const file = require('path').join(args.profileDir, 'exthost-chat-' + who + '-' + Math.round(at));
  fs.mkdirSync(args.profileDir, { recursive: true });
  fs.writeFileSync(file + '.cpuprofile', JSON.stringify(profile));
  fs.writeFileSync(file + '.marks.json', JSON.stringify({ profileStartAt: at, apiAt: at, allRunningAt: end, rounds: rounds.length }));
};
if (args.profileDir) {
  for (const [who, all] of [['zut', false], ['benchmin', false], ['benchmin', true]]) {
    await profiled(who + (all ? '-all' : ''), Array.from({ length: args.trials }, (_, k) => () => viaChat(k, who, all)));
  }
}
for (let k = 0; !args.profileDir && k < args.trials; k++) {
  const steps = [() => viaChat(k), () => viaChat(k, 'benchmin'), () => viaChat(k, 'benchmin', true), () => direct(k)];
  for (let j = 0; j < steps.length; j++) await steps[(k + j) % steps.length]();
  await bareLm();
}
globalThis.__zutBenchMinAllTools = false;
await vscode.commands.executeCommand('zutTest.toolCallDelay', 0);
return out;
`, { trials, thinkMs: MODEL_THINK_MS, profileDir: process.env.ZUT_BENCH_PROFILE_DIR && path.resolve(process.env.ZUT_BENCH_PROFILE_DIR) });
}
