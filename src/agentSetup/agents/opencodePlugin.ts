/**
 * zut's opencode plugin, as the text the installer writes into opencode's `plugins/` folder (opencode loads every
 * `plugins/*.js` of `~/.config/opencode` and of the project's `.opencode` at start, no trust gate, no packages
 * needed: this one imports only `node:child_process`). For each hook it runs `<command…> hook --agent opencode EVENT`
 * — the command being the extension's stable launcher (launcher.ts: it survives updates) or this installation's
 * Node and dist/hook.js, which asks a running window or the warm host over its socket and else answers by itself —
 * with `{event, input, output, directory}` on stdin (the dialect, hooks/dialects/opencode.ts, says the shape and the
 * answers). Spawning the light entry rather than speaking the socket here keeps one client of the hosts (rendezvous,
 * tokens, the warm host's start) and costs a Node start per call, as every other agent's hook does.
 * `tool.execute.before` fails CLOSED: a command that cannot start, exits without an answer (killed, crashed), runs
 * past PLUGIN_TIMEOUT_MS or answers anything but the dialect's JSON throws — opencode then does not run the tool and
 * the model reads why. A rewrite replaces the arguments in place (opencode runs the object it passed the hook, not
 * `output.args`), and `tool.execute.after` tells the model its result is the rewritten call's. SessionStart's
 * context is asked once per session at its first system prompt; each prompt is UserPromptSubmit (`chat.message`: a
 * block throws, opencode then does not send it; its context joins the system prompt of that turn's requests). The text is generated, not bundled, so the file is
 * whole by itself; `check` compares it with the current text (another version's is reported stale). VS Code-free.
 */
import { HOOK_INPUT_MAX_BYTES, HOOK_TIMEOUT_SECONDS } from '../../protocol/limits';

/** The first line of every plugin file of ours (how uninstall and check know it). */
export const OPENCODE_PLUGIN_MARK = '// zut-vscode: opencode plugin (zut-host hook install --agent opencode)';

/**
 * How long the plugin waits for one hook command: the 30 s we give every agent's hook (HOOK_TIMEOUT_SECONDS), past
 * zut's own budget (HOOK_BUDGET_MS, 25 s), so zut answers first — a command still running then is killed and the
 * call blocked.
 */
export const PLUGIN_TIMEOUT_MS = HOOK_TIMEOUT_SECONDS * 1000;

/** The plugin file running `command` (argv: the launcher, or Node and dist/hook.js); `timeoutMs` for tests. */
export function opencodePluginText(command: readonly string[], timeoutMs = PLUGIN_TIMEOUT_MS): string {
  return `${OPENCODE_PLUGIN_MARK}
// Written by zut-vscode; reinstall to update it, \`zut-host hook uninstall --agent opencode\` to remove it.
// Every tool call is judged by zut's guards before opencode runs it; if zut cannot answer, the call is blocked.
import { spawn } from "node:child_process";

const COMMAND = ${JSON.stringify(command)};
const TIMEOUT_MS = ${timeoutMs};
const MAX_OUTPUT = ${HOOK_INPUT_MAX_BYTES};

/** zut's answer to one event: an object, or undefined for none; rejects with why when there is no answer. */
function ask(event, payload) {
  return new Promise((resolve, reject) => {
    let child;
    try {
      child = spawn(COMMAND[0], [...COMMAND.slice(1), "hook", "--agent", "opencode", event], { stdio: ["pipe", "pipe", "pipe"], windowsHide: true });
    } catch (e) {
      return reject(new Error("cannot start " + COMMAND[0] + ": " + (e && e.message)));
    }
    let out = "";
    let err = "";
    let done = false;
    const finish = (f, v) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      f(v);
    };
    const timer = setTimeout(() => {
      try { child.kill("SIGKILL"); } catch {}
      finish(reject, new Error("zut did not answer within " + TIMEOUT_MS / 1000 + " s"));
    }, TIMEOUT_MS);
    child.on("error", (e) => finish(reject, new Error("cannot run " + COMMAND[0] + ": " + e.message)));
    child.stdout.on("data", (d) => { out += d; if (out.length > MAX_OUTPUT) { try { child.kill("SIGKILL"); } catch {} finish(reject, new Error("zut's answer is too long")); } });
    child.stderr.on("data", (d) => { if (err.length < 4096) err += d; });
    child.on("close", (code, signal) => {
      const text = out.trim();
      if (code !== 0 || signal) return finish(reject, new Error("zut-host hook " + (signal ? "was killed (" + signal + ")" : "exited " + code) + (err.trim() ? ": " + err.trim().slice(0, 500) : "")));
      if (text === "") return finish(resolve, undefined);
      let answer;
      try { answer = JSON.parse(text); } catch { return finish(reject, new Error("zut's answer is not JSON")); }
      if (answer === null || typeof answer !== "object" || Array.isArray(answer)) return finish(reject, new Error("zut's answer is not a JSON object"));
      finish(resolve, answer);
    });
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(payload));
  });
}

export const ZutGuard = async ({ directory }) => {
  const contexts = new Map();
  const rewritten = new Map();
  const turns = new Map();
  return {
    "tool.execute.before": async (input, output) => {
      let answer;
      try {
        answer = await ask("PreToolUse", { event: "tool.execute.before", input, output, directory });
      } catch (e) {
        throw new Error("blocked by zut: " + e.message);
      }
      if (answer === undefined) return;
      if (answer.action === "deny") throw new Error(String(answer.reason));
      if (answer.action === "rewrite" && answer.args !== null && typeof answer.args === "object" && !Array.isArray(answer.args)) {
        for (const k of Object.keys(output.args)) delete output.args[k];
        Object.assign(output.args, answer.args);
        if (typeof answer.note === "string") rewritten.set(input.callID, answer.note);
        return;
      }
      throw new Error("blocked by zut: an answer it does not know (" + JSON.stringify(answer).slice(0, 200) + ")");
    },
    "tool.execute.after": async (input, output) => {
      const note = rewritten.get(input.callID);
      if (note !== undefined) {
        rewritten.delete(input.callID);
        if (typeof output.output === "string") output.output = note + "\\n\\n" + output.output;
      }
      await ask("PostToolUse", { event: "tool.execute.after", input, output, directory }).catch(() => undefined);
    },
    "chat.message": async (input, output) => {
      const id = input && input.sessionID;
      const prompt = (output.parts || []).filter((p) => p && p.type === "text" && !p.synthetic).map((p) => p.text).join("\\n");
      let answer;
      try {
        answer = await ask("UserPromptSubmit", { event: "chat.message", input: { sessionID: id, messageID: input.messageID, agent: input.agent }, prompt, directory });
      } catch {
        turns.delete(id);
        return; // a prompt is no acting tool: zut's failure lets it through, as for every agent
      }
      if (answer && answer.action === "block") throw new Error(String(answer.reason));
      turns.set(id, answer && answer.action === "context" && typeof answer.text === "string" ? answer.text : "");
    },
    "experimental.chat.system.transform": async (input, output) => {
      const id = input && input.sessionID;
      if (typeof id !== "string") return;
      if (!contexts.has(id)) contexts.set(id, ask("SessionStart", { event: "experimental.chat.system.transform", input: { sessionID: id }, directory }).then((a) => (a && a.action === "context" && typeof a.text === "string" ? a.text : ""), () => ""));
      const text = await contexts.get(id);
      if (text) output.system.push(text);
      const turn = turns.get(id);
      if (turn) output.system.push(turn);
    },
  };
};
`;
}
