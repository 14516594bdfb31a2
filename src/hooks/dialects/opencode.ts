/**
 * opencode's hook dialect (opencode-ai 1.18.33 in test/agents). opencode has no hook commands: its hooks are an
 * in-process plugin (`@opencode-ai/plugin`), so zut's plugin (agentSetup/agents/opencodePlugin.ts, written into
 * opencode's `plugins/` folder) runs `zut-host hook --agent opencode EVENT` for each call and sends what opencode
 * gave it, as it came: `{event, input, output?, directory}` — `event` the plugin hook (`tool.execute.before` →
 * PreToolUse, `tool.execute.after` → PostToolUse, `experimental.chat.system.transform` → SessionStart, once per
 * session), `chat.message` → UserPromptSubmit (with `prompt`, the text parts), `input`/`output` opencode's two hook objects (`{tool, sessionID, callID[, args]}`, `{args}` before or
 * `{title, output, metadata}` after), `directory` the plugin's project folder. The answer is one JSON line the plugin
 * reads: `{action: "deny", reason}` (it throws: opencode blocks the call and the model reads the reason),
 * `{action: "rewrite", args, note}` (it replaces the arguments in place: opencode then runs the tool, its own
 * permission rules judging the rewritten call — a rewrite never widens them), `{action: "context", text}` (pushed
 * to the system prompt), `{action: "block", reason}` for a prompt; nothing for no opinion. A tool of zut's MCP server
 * is `zut_<tool>` (opencode: `<server>_<tool>`, each part's characters outside [A-Za-z0-9_-] as `_`). VS Code-free.
 */
import { MCP_SERVER_NAME } from '../names';
import { json, rewriteNote, type HookDialect } from './types';

const obj = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

export const OPENCODE: HookDialect = {
  agent: 'opencode',
  mcpToolPrefixes: [`${MCP_SERVER_NAME}_`],
  normalize: (raw, call) => {
    const input = obj(raw.input);
    const output = obj(raw.output);
    const after = call.event === 'PostToolUse';
    return {
      ...(typeof input.sessionID === 'string' && { session_id: input.sessionID }),
      ...(typeof raw.directory === 'string' && { cwd: raw.directory }),
      ...(typeof input.tool === 'string' && { tool_name: input.tool }),
      ...(typeof input.callID === 'string' && { tool_use_id: input.callID }),
      ...(input.tool !== undefined && { tool_input: after ? input.args : output.args }),
      ...(after && { tool_response: typeof output.output === 'string' ? output.output : raw.output }),
      ...(typeof raw.prompt === 'string' && { prompt: raw.prompt }),
    };
  },
  deny: (_call, reason) => json({ action: 'deny', reason }),
  rewrite: (_call, r) => json({ action: 'rewrite', args: r.updated, note: rewriteNote(r) }),
  context: (_call, _event, text) => json({ action: 'context', text }),
  blockPrompt: (_call, reason) => json({ action: 'block', reason }),
};
