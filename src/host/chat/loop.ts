/**
 * The `@zut` tool-calling loop, free of `vscode`: one user request = rounds of (turn_start interception → model call →
 * assistant_message interception → tool calls through the host) until the model stops calling tools, a round cap, a
 * block, a model error or the user's Stop. The VS Code adapter only converts parts and renders what `LoopSink` gets.
 */
import { randomUUID } from 'node:crypto';
import type { SessionContext } from '../../protocol';
import type { ExtensionHost } from '../api';
import { assignModelNames, type ToolNameMap } from '../calls/toolNames';
import { RequestError, type ToolResult } from '../types';
import {
  ModelError,
  type ChatMessage,
  type ChatModel,
  type MessagePart,
  type ModelTool,
  type ResultPart,
} from './model';
import { TOOL_SUMMARY_MAX_CHARS as SUMMARY_MAX } from '../../protocol/limits';

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
  host: ExtensionHost;
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
export function hostAllowsStreaming(host: ExtensionHost): boolean {
  return !host.hasInterceptors('assistant_message');
}

/** The model-facing names of the extension tools offered now (toolNames.ts; host tools keep theirs). */
export function modelNames(host: ExtensionHost, local: LocalTool[] = []): ToolNameMap {
  return assignModelNames(
    host.tools().map((t) => t.name),
    local.map((l) => l.tool.name),
  );
}

/**
 * The tools offered this round: host tools plus active extension tools (deferred ones once activated), each under
 * its model-facing name (a zut name VS Code would refuse gets a stable sanitised one).
 */
export function offeredTools(host: ExtensionHost, local: LocalTool[] = [], names = modelNames(host, local)): ModelTool[] {
  const out: ModelTool[] = local.map((l) => l.tool);
  for (const t of host.tools()) {
    const name = names.toModel(t.name);
    if (name) out.push({ name, description: t.description ?? '', inputSchema: t.schema });
  }
  return out;
}

/** Converts a `tool_result`'s content blocks to what the model receives. */
export function resultParts(result: ToolResult): ResultPart[] {
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
    const names = modelNames(host, o.localTools);
    const name = names.toModel(o.toolFirst.name) ?? o.toolFirst.name;
    const call = { kind: 'toolCall' as const, callId: `zut-tool-prompt-${randomUUID()}`, name, input: o.toolFirst.args };
    turn.push({ role: 'assistant', parts: [call] });
    turn.push({ role: 'user', parts: [await runToolCall(o, local, names, call)] });
    if (signal.aborted) return done('cancelled');
  }

  for (let step = 1; ; step++) {
    if (signal.aborted) return done('cancelled');
    if (step > o.maxRounds) {
      sink.notice('info', `Stopped after ${o.maxRounds} rounds (setting zut.chat.maxRounds).`);
      return done('max_rounds');
    }
    const start = await host.interceptTurnStart(step);
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
    const names = modelNames(host, o.localTools);
    let text = '';
    const calls: Extract<MessagePart, { kind: 'toolCall' }>[] = [];
    try {
      for await (const part of model.send({ messages, tools: offeredTools(host, o.localTools, names), signal })) {
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
    for (const call of calls) results.push(await runToolCall(o, local, names, call));
    turn.push({ role: 'user', parts: results });
    if (signal.aborted) return endTurn(host, 'cancelled', done);
    host.emit({ event: 'turn_end', stop: 'tool_use' });
  }
}

function endTurn(host: ExtensionHost, stop: 'cancelled', done: (s: LoopStop) => LoopResult): LoopResult {
  host.emit({ event: 'turn_end', stop });
  return done(stop);
}

/** One model tool call through the host's guarded path (`invokeTool`), reported to the sink. */
async function runToolCall(
  o: LoopOptions,
  local: Map<string, LocalTool>,
  names: ToolNameMap,
  call: Extract<MessagePart, { kind: 'toolCall' }>,
): Promise<MessagePart> {
  const { host, sink, signal } = o;
  const { callId } = call;
  const tool = local.get(call.name);
  // The extension receives its own name; the sink shows it too.
  const name = tool ? call.name : (names.toZut(call.name) ?? call.name);
  const ext = tool ? 'zut' : host.tools().find((t) => t.name === name)?.ext;
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
    const r = await host.invokeTool(name, call.input, {
      session: o.session,
      origin: 'chat',
      signal,
      timeoutMs: o.toolTimeoutMs,
      toolId: callId,
      run: tool ? (args, s) => tool.run(args, s) : undefined,
      onStart: () => sink.toolStarted({ callId, name, ext }),
      onProgress: (text) => sink.toolProgress?.({ callId, name, ext }, text),
    });
    const parts = resultParts(r);
    if (r.blocked) {
      sink.toolFinished({ callId, name, ext, status: 'blocked', summary: summarize(parts) });
      return result(parts, true);
    }
    sink.toolFinished({ callId, name, ext: r.ext, status: r.isError ? 'error' : 'ok', summary: summarize(parts) });
    return result(parts, r.isError);
  } catch (e) {
    if (signal.aborted || (e instanceof RequestError && e.kind === 'cancelled')) return cancelled();
    const message = e instanceof Error ? e.message : String(e);
    sink.toolFinished({ callId, name, ext, status: 'error', summary: message });
    return result([{ kind: 'text', text: message }], true);
  }
}
