/**
 * The `@zut` tool-calling loop, free of `vscode`: one user request = rounds of (turn_start interception → model call →
 * assistant_message interception → tool calls through the host) until the model stops calling tools, a round cap, a
 * block, a model error or the user's Stop. The model is offered host tools, extension tools and the editor's own
 * tools (editorTools.ts); every call takes the host's guarded path, editor tools as zut's counterparts
 * (`foreign`: foreignTools/). The VS Code adapter only converts parts and renders what `LoopSink` gets.
 */
import { randomUUID } from 'node:crypto';
import type { SessionContext } from '../../protocol';
import type { HostCalls, HostCatalog } from '../api';
import { assignModelNames, type ToolNameMap } from '../calls/toolNames';
import { editorModelNames, type EditorToolInfo, type EditorToolPort } from './editorTools';
import type { RequestError, ToolResult } from '../types';
import {
  ModelError,
  type ChatMessage,
  type ChatModel,
  type MessagePart,
  type ModelTool,
  type ResultPart,
} from './model';
import { TOOL_SUMMARY_MAX_CHARS as SUMMARY_MAX } from '../../protocol/limits';
import { roundMark } from './roundMarks';

/** How one tool call ended, for the one-line summary the user sees. */
export interface ToolOutcome {
  callId: string;
  name: string;
  /** The extension that owns the tool (`zut` for host tools like `skill`); undefined when unknown. */
  ext?: string;
  status: 'ok' | 'error' | 'blocked' | 'cancelled';
  /** One line: the first line of the result, the block reason, or the error. Plain text (data, not markdown). */
  summary: string;
}

/** What the user sees. All strings are plain text: the adapter escapes them. */
export interface LoopSink {
  /**
   * Assistant text: streamed chunks or one round's whole message (`model`), or an extension's replacement of it
   * (`extension`: data, to be shown escaped).
   */
  text(text: string, origin: 'model' | 'extension'): void;
  /** A tool is about to run (progress). */
  toolStarted(call: { callId: string; name: string; ext?: string }): void;
  /** Output a running tool streams (e's `tool.update`), as progress. */
  toolProgress?(call: { callId: string; name: string; ext?: string }, text: string): void;
  toolFinished(outcome: ToolOutcome): void;
  /** A host message: a blocked turn or message, the round cap, a model error. */
  notice(kind: 'blocked' | 'error' | 'info', text: string): void;
}

/** A tool implemented by the host itself (the `skill` tool), offered next to the extensions' tools. */
export interface LocalTool {
  tool: ModelTool;
  run(args: unknown, signal: AbortSignal): Promise<ToolResult>;
}

export interface LoopOptions {
  host: HostCatalog & HostCalls;
  model: ChatModel;
  sink: LoopSink;
  /** The conversation so far (from earlier turns), as the model said it. */
  history: ChatMessage[];
  prompt: string;
  /** Hidden messages sent first in every request of this turn and never kept (the skills preamble). */
  preamble?: ChatMessage[];
  localTools?: LocalTool[];
  maxRounds: number;
  /** Per-call reply timeout; the Manager's default when omitted. Interactive tools have none. */
  toolTimeoutMs?: number;
  /** The editor's own tools (VS Code's, selected by `zut.chat.editorTools`), offered beside the zut tools. */
  editorTools?: EditorToolPort;
  /** The user's Stop. */
  signal: AbortSignal;
  /** This conversation's branch: tool `details` are filed under it. */
  session: SessionContext;
  /**
   * zot's `tool_prompt`: this tool runs (the guarded path) after the prompt and before the first model call; the
   * call and its result are recorded in the turn, so the model sees them.
   */
  toolFirst?: { name: string; args: Record<string, unknown> };
  /**
   * Whether assistant text may be streamed as it arrives. Default: only when no extension intercepts
   * `assistant_message` (text a guard may block or rewrite is held back until the interception chain answered).
   */
  streamText?: boolean;
}

export type LoopStop = 'end_turn' | 'blocked' | 'max_rounds' | 'cancelled' | 'error';

export interface LoopResult {
  /** This turn's messages as the model sees them later: the prompt, the model's own text, tool calls and results. */
  messages: ChatMessage[];
  stop: LoopStop;
  /** Rounds that reached the model. */
  rounds: number;
}

/** True when no extension intercepts `assistant_message`, so text can stream to the user as it arrives. */
function hostAllowsStreaming(host: HostCalls): boolean {
  return !host.hasInterceptors('assistant_message');
}

/** The model-facing names of the extension tools offered now (toolNames.ts; host tools keep theirs). */
export function modelNames(host: HostCatalog, local: LocalTool[] = []): ToolNameMap {
  return assignModelNames(
    host.tools().map((t) => t.name),
    local.map((l) => l.tool.name),
  );
}

/** This round's tools: zut's names (host and extension tools), then the editor's (editorTools.ts: the rule). */
export interface Offer {
  names: ToolNameMap;
  editor: readonly EditorToolInfo[];
  editorNames: ToolNameMap;
}

/** The names of everything offered now: zut's first, editor tools around them. */
export function currentOffer(host: HostCatalog, local: LocalTool[] = [], editor?: EditorToolPort): Offer {
  const names = modelNames(host, local);
  const tools = editor?.tools() ?? [];
  const zutModelNames = [...local.map((l) => l.tool.name), ...host.tools().map((t) => names.toModel(t.name) ?? t.name)];
  return { names, editor: tools, editorNames: editorModelNames(tools.map((t) => t.name), zutModelNames) };
}

/**
 * The tools offered this round: host tools plus active extension tools (deferred ones once activated), each under
 * its model-facing name (a zut name VS Code would refuse gets a stable sanitised one), then the editor's tools.
 */
function offeredTools(host: HostCatalog, local: LocalTool[] = [], offer: Offer | ToolNameMap = modelNames(host, local)): ModelTool[] {
  const o: Offer = 'names' in offer ? offer : { names: offer, editor: [], editorNames: editorModelNames([], []) };
  const out: ModelTool[] = local.map((l) => l.tool);
  for (const t of host.tools()) {
    const name = o.names.toModel(t.name);
    if (name) out.push({ name, description: t.description ?? '', inputSchema: t.schema });
  }
  for (const t of o.editor) {
    const name = o.editorNames.toModel(t.name);
    if (name) out.push({ name, description: t.description, inputSchema: (t.inputSchema ?? { type: 'object' }) as Record<string, unknown> });
  }
  return out;
}

/** Converts a `tool_result`'s content blocks to what the model receives. */
function resultParts(result: ToolResult): ResultPart[] {
  const parts: ResultPart[] = [];
  for (const block of result.content) {
    if (block.type === 'text') parts.push({ kind: 'text', text: block.text ?? '' });
    else if (block.type === 'image' && block.data)
      parts.push({ kind: 'image', mime: block.mime_type ?? 'image/png', data: Buffer.from(block.data, 'base64') });
    else parts.push({ kind: 'text', text: `[unsupported ${block.type} block]` });
  }
  if (parts.length === 0) parts.push({ kind: 'text', text: result.isError ? 'error' : '(no output)' });
  return parts;
}

/** One line describing a result: its first text line (capped), and how many images it has. */
export function summarize(parts: ResultPart[]): string {
  const text = parts.find((p) => p.kind === 'text')?.text ?? '';
  const images = parts.filter((p) => p.kind === 'image').length;
  let line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  if (line.length > SUMMARY_MAX) line = line.slice(0, SUMMARY_MAX - 1) + '…';
  if (images) line += `${line ? ' ' : ''}[${images} image${images > 1 ? 's' : ''}]`;
  return line;
}

/** Runs one user request to completion. Never throws for model or tool failures: they end up in the sink. */
export async function runLoop(o: LoopOptions): Promise<LoopResult> {
  const { host, model, sink, signal } = o;
  const stream = o.streamText ?? hostAllowsStreaming(host);
  const local = new Map((o.localTools ?? []).map((l) => [l.tool.name, l]));
  const turn: ChatMessage[] = [{ role: 'user', parts: [{ kind: 'text', text: o.prompt }] }];
  let rounds = 0;
  const done = (stop: LoopStop): LoopResult => ({ messages: turn, stop, rounds });
  host.emit({ event: 'user_prompt_submit', text: o.prompt });
  if (o.toolFirst) {
    const offer = currentOffer(host, o.localTools, o.editorTools);
    const name = offer.names.toModel(o.toolFirst.name) ?? o.toolFirst.name;
    const call = { kind: 'toolCall' as const, callId: `zut-tool-prompt-${randomUUID()}`, name, input: o.toolFirst.args };
    turn.push({ role: 'assistant', parts: [call] });
    turn.push({ role: 'user', parts: [await runToolCall(o, local, offer, call)] });
    if (signal.aborted) return done('cancelled');
  }

  for (let step = 1; ; step++) {
    if (signal.aborted) return done('cancelled');
    if (step > o.maxRounds) {
      sink.notice('info', `Stopped after ${o.maxRounds} rounds (setting zut.chat.maxRounds).`);
      return done('max_rounds');
    }
    const start = await host.interceptTurnStart(step, o.prompt);
    if (start.blocked) {
      sink.notice('blocked', `Turn blocked by ${start.blocked.ext}: ${start.blocked.reason}`);
      return done('blocked');
    }
    host.emit({ event: 'turn_start', step });
    if (signal.aborted) return endTurn(host, 'cancelled', done);

    // The hidden context rides on this request only: a copy of the last (user) message, never kept in `turn`.
    const messages = [...(o.preamble ?? []), ...o.history, ...turn];
    if (start.context) {
      const last = messages[messages.length - 1];
      messages[messages.length - 1] = { ...last, parts: [...last.parts, { kind: 'text', text: start.context }] };
    }

    rounds++;
    const offer = currentOffer(host, o.localTools, o.editorTools);
    let text = '';
    const calls: Extract<MessagePart, { kind: 'toolCall' }>[] = [];
    try {
      for await (const part of model.send({ messages, tools: offeredTools(host, o.localTools, offer), signal })) {
        if (part.kind === 'text') {
          text += part.text;
          if (stream && part.text) sink.text(part.text, 'model');
        } else calls.push(part);
      }
    } catch (e) {
      if (signal.aborted) return endTurn(host, 'cancelled', done);
      const message = e instanceof Error ? e.message : String(e);
      sink.notice('error', e instanceof ModelError ? `Model error (${e.code}): ${message}` : `Model error: ${message}`);
      host.emit({ event: 'turn_end', stop: 'error', error: message });
      return done('error');
    }
    if (signal.aborted) return endTurn(host, 'cancelled', done);

    const assistant: MessagePart[] = text ? [{ kind: 'text', text }, ...calls] : [...calls];
    if (assistant.length) turn.push({ role: 'assistant', parts: assistant });
    if (text) {
      host.emit({ event: 'assistant_message', text });
      if (!stream) {
        const shown = await host.interceptAssistantMessage(text);
        if (shown.blocked) sink.notice('blocked', `Message hidden by ${shown.blocked.ext}: ${shown.blocked.reason}`);
        else if (shown.text) sink.text(shown.text, shown.text === text ? 'model' : 'extension');
      }
    }
    if (calls.length === 0) {
      host.emit({ event: 'turn_end', stop: 'end_turn' });
      return done('end_turn');
    }

    const results: MessagePart[] = [];
    for (const call of calls) results.push(await runToolCall(o, local, offer, call));
    turn.push({ role: 'user', parts: results });
    if (signal.aborted) return endTurn(host, 'cancelled', done);
    host.emit({ event: 'turn_end', stop: 'tool_use' });
  }
}

function endTurn(host: HostCalls, stop: 'cancelled', done: (s: LoopStop) => LoopResult): LoopResult {
  host.emit({ event: 'turn_end', stop });
  return done(stop);
}

/** One model tool call through the host's guarded path (`invokeTool`), reported to the sink. */
async function runToolCall(
  o: LoopOptions,
  local: Map<string, LocalTool>,
  offer: Offer,
  call: Extract<MessagePart, { kind: 'toolCall' }>,
): Promise<MessagePart> {
  const { host, sink, signal } = o;
  const { callId } = call;
  const tool = local.get(call.name);
  const zutName = tool ? undefined : offer.names.toZut(call.name);
  const editorName = tool || zutName !== undefined ? undefined : offer.editorNames.toZut(call.name);
  // The extension receives its own name; the sink shows it too (an editor tool: VS Code's name).
  const name = tool ? call.name : (zutName ?? editorName ?? call.name);
  const ext = tool ? 'zut' : editorName !== undefined ? 'vscode' : host.tools().find((t) => t.name === name)?.ext;
  const result = (content: ResultPart[], isError: boolean): MessagePart => ({
    kind: 'toolResult',
    callId,
    content,
    isError,
  });
  const cancelled = (): MessagePart => {
    sink.toolFinished({ callId, name, ext, status: 'cancelled', summary: 'cancelled' });
    return result([{ kind: 'text', text: 'cancelled by the user' }], true);
  };
  if (signal.aborted) return cancelled();

  try {
    const options = {
      session: o.session,
      origin: 'chat' as const,
      signal,
      timeoutMs: o.toolTimeoutMs,
      toolId: callId,
      onStart: () => {
        roundMark('toolStart');
        sink.toolStarted({ callId, name, ext });
      },
      onProgress: (text: string) => sink.toolProgress?.({ callId, name, ext }, text),
    };
    const port = o.editorTools;
    // Object.assign, not a spread: Node 20's V8 takes ~2 µs for a spread followed by more properties (bench: editor-tool).
    const r =
      editorName !== undefined && port
        ? await host.invokeTool(editorName, call.input, Object.assign(options, { foreign: { source: 'vscode' as const, run: (input: Record<string, unknown>, s: AbortSignal) => port.invoke(editorName, input, s) } }))
        : await host.invokeTool(name, call.input, tool ? Object.assign(options, { run: (args: unknown, s: AbortSignal) => tool.run(args, s) }) : options);
    roundMark('toolResolved');
    const parts = resultParts(r);
    if (r.blocked) {
      sink.toolFinished({ callId, name, ext, status: 'blocked', summary: summarize(parts) });
      return result(parts, true);
    }
    sink.toolFinished({ callId, name, ext: r.ext, status: r.isError ? 'error' : 'ok', summary: summarize(parts) });
    return result(parts, r.isError);
  } catch (e) {
    // By its kind, not `instanceof`: in VS Code the loop runs from dist/chat.js, whose copy of RequestError is not
    // the class the host (dist/extension.js) throws (ARCHITECTURE.md, "Lazy bundles").
    if (signal.aborted || (e instanceof Error && (e as Partial<RequestError>).kind === 'cancelled')) return cancelled();
    const message = e instanceof Error ? e.message : String(e);
    sink.toolFinished({ callId, name, ext, status: 'error', summary: message });
    return result([{ kind: 'text', text: message }], true);
  }
}
