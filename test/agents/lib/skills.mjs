// @ts-check
// The example `briefing` extension's skill (weather-briefing) as the skills scenarios check it, for every agent: the
// line the `skill` tool's description gives it, the SKILL.md's body lines, the head of the tool's answer, the call.
import path from 'node:path';

/** The skill's line in the `skill` tool's description (src/host/chat/skills.ts). */
export const SKILL_LINE = "- weather-briefing (from briefing): Write a short travel weather briefing for one or more cities with the weather extension's tools.";
/**
 * Lines of the SKILL.md's body (not its front matter): none may reach the model before it calls the tool, and each must
 * be in the tool_result after (so the "not up front" checks look for text the agents do carry).
 */
export const BODY = ['# Weather briefing', 'never guess the weather'];
/** What the tool_result starts with: the skill, its extension and its folder, before the SKILL.md. */
export const HEAD = 'Skill "weather-briefing" of the zut extension briefing. Paths in it are relative to ';
/** The `skill` tool's input. */
export const CALL = { name: 'weather-briefing' };

/**
 * The example extensions in the sandbox's $ZUT_HOME; returns the SKILL.md's path there.
 * @param {import('./sandbox.mjs').Sandbox} sb
 */
export function addBriefing(sb) {
  sb.addExample('weather');
  const dir = sb.addExample('briefing');
  return path.join(dir, 'skills', 'weather-briefing', 'SKILL.md');
}

/**
 * The text of each tool result in an OpenAI Chat Completions request body, as the model reads it. Observed: Cline CLI
 * 3.0.65 sends an MCP result as a string holding the JSON of the MCP result (`{"content":[{type:"text",text}],
 * "isError":false}`), Qwen Code 0.24.4 as content parts (`[{type:"text",text}]`): both decoded to their text parts.
 * @param {any} body @returns {{ text: string, isError?: boolean }[]}
 */
export function chatToolTexts(body) {
  const msgs = Array.isArray(body?.messages) ? body.messages : [];
  const texts = (/** @type {any} */ parts) => parts.filter((p) => p?.type === 'text').map((p) => String(p.text)).join('\n');
  return msgs
    .filter((m) => m?.role === 'tool')
    .map((m) => {
      if (Array.isArray(m.content)) return { text: texts(m.content) };
      let parsed;
      try {
        parsed = JSON.parse(m.content);
      } catch {
        return { text: String(m.content) };
      }
      if (Array.isArray(parsed?.content)) return { text: texts(parsed.content), isError: parsed.isError };
      return { text: String(m.content) };
    });
}
