/**
 * Agent hook input: the JSON an agent writes on a hook command's stdin, validated (zod) and read into one shape.
 * VS Code's Local harness writes snake_case (`session_id`, `hook_event_name`, `tool_name`, `tool_input`,
 * `tool_use_id`, `tool_response`) where its older docs say camelCase: both are read. Copilot CLI's camelCase events
 * give `toolName` / `toolArgs` (`toolArgs` may be a JSON string) and `toolResult`; its PascalCase events and Claude
 * Code give the snake_case shape. VS Code-free.
 */
import * as z from 'zod';
import { isObject } from '../protocol/json';
import type { HookCall } from './names';
import { dialectOf } from './dialects';


const text = z.string().max(1_000_000).optional();

/** Every field we read, both spellings; everything else passes (agents add fields). */
const RawInput = z
  .object({
    session_id: text,
    sessionId: text,
    hook_event_name: text,
    hookEventName: text,
    cwd: text,
    tool_name: text,
    toolName: text,
    tool_input: z.unknown().optional(),
    toolInput: z.unknown().optional(),
    toolArgs: z.unknown().optional(),
    tool_use_id: text,
    toolUseId: text,
    tool_response: z.unknown().optional(),
    toolResponse: z.unknown().optional(),
    toolResult: z.unknown().optional(),
    tool_result: z.unknown().optional(),
    prompt: text,
    source: text,
    reason: text,
    notification_type: text,
    message: text,
  })
  .passthrough();

/** One hook call read from stdin. */
export interface HookInput {
  sessionId?: string;
  cwd?: string;
  toolName?: string;
  /** The tool's input object (a JSON-string `toolArgs` parsed); `{}` when absent. */
  toolInput: Record<string, unknown>;
  /** Whether the agent gave the input as a JSON string (Copilot CLI's `toolArgs`): answers use the same form. */
  toolInputWasString: boolean;
  toolUseId?: string;
  toolResponse?: unknown;
  prompt?: string;
  source?: string;
  /** PermissionDenied: why. */
  reason?: string;
  /** Notification: its kind (`permission_prompt`: the agent asks the person about a tool call) and text. */
  notificationType?: string;
  message?: string;
}


/**
 * Copilot CLI's freeform tools: their `toolArgs` is the text itself, not JSON (its `apply_patch` takes the patch;
 * Copilot CLI 1.0.102's tool descriptions: "This is a FREEFORM tool"). Read as `{input: <text>}`, the shape its own
 * reader also accepts.
 */
const FREEFORM_TOOLS: ReadonlySet<string> = new Set(['apply_patch']);

/** Reads the agent's JSON (in its dialect's field names: `normalize`); a string says why it is malformed. */
export function readHookInput(raw: string, call: HookCall): HookInput | string {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (e) {
    return `input is not JSON: ${(e as Error).message}`;
  }
  const normalize = dialectOf(call.agent).normalize;
  if (normalize && isObject(json)) json = normalize(json, call);
  const r = RawInput.safeParse(json);
  if (!r.success) return `input does not match the hook format: ${r.error.issues[0]?.path.join('.')}: ${r.error.issues[0]?.message}`;
  const i = r.data;
  let input = i.tool_input ?? i.toolInput ?? i.toolArgs;
  let wasString = false;
  if (typeof input === 'string') {
    const text = input;
    try {
      input = JSON.parse(text);
      wasString = true;
    } catch {
      if (!FREEFORM_TOOLS.has(i.tool_name ?? i.toolName ?? '')) return 'toolArgs is a string that is not JSON';
      input = { input: text };
    }
  }
  if (input !== undefined && !isObject(input)) return 'the tool input is not a JSON object';
  return {
    sessionId: i.session_id ?? i.sessionId,
    cwd: i.cwd,
    toolName: i.tool_name ?? i.toolName,
    toolInput: input ?? {},
    toolInputWasString: wasString,
    toolUseId: i.tool_use_id ?? i.toolUseId,
    // Copilot CLI: `toolResult` (camelCase events) or `tool_result` (PascalCase), `{resultType, textResultForLlm}`.
    toolResponse: i.tool_response ?? i.toolResponse ?? i.toolResult ?? i.tool_result,
    prompt: i.prompt,
    source: i.source,
    reason: i.reason,
    notificationType: i.notification_type,
    message: i.message,
  };
}
