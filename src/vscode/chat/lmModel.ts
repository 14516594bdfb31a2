/**
 * The `@zut` loop's model interface over `vscode.LanguageModelChat`: conversation parts → `LanguageModelChatMessage`s,
 * extension tools → private `LanguageModelChatTool`s, the response stream → text and tool calls,
 * `LanguageModelError` → `ModelError` (keeping its code).
 */
import * as vscode from 'vscode';
import {
  ModelError,
  type ChatMessage,
  type ChatModel,
  type ModelRequest,
  type ModelStreamPart,
  type ResultPart,
} from '../../host/chat/model';
import { roundMark } from '../../host/chat/roundMarks';
import { isObject } from '../../protocol/json';

/** `LanguageModelDataPart` (finalized after @types/vscode 1.104): present at runtime in newer VS Code builds. */
interface DataPartCtor {
  image(data: Uint8Array, mime: string): unknown;
}

function dataPartCtor(): DataPartCtor | undefined {
  const ctor = (vscode as unknown as { LanguageModelDataPart?: Partial<DataPartCtor> }).LanguageModelDataPart;
  return typeof ctor?.image === 'function' ? (ctor as DataPartCtor) : undefined;
}

function resultContent(parts: ResultPart[], isError: boolean): unknown[] {
  const data = dataPartCtor();
  const out: unknown[] = isError ? [new vscode.LanguageModelTextPart('[tool error] ')] : [];
  for (const p of parts) {
    if (p.kind === 'text') out.push(new vscode.LanguageModelTextPart(p.text));
    else if (data) out.push(data.image(p.data, p.mime));
    else out.push(new vscode.LanguageModelTextPart(`[image ${p.mime}, ${p.data.byteLength} bytes: not supported here]`));
  }
  return out;
}

/** Converts the loop's conversation to VS Code messages (tool calls in assistant messages, results in user ones). */
function toLmMessages(messages: ChatMessage[]): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  for (const m of messages) {
    if (m.parts.length === 0) continue;
    if (m.role === 'assistant') {
      const parts: (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[] = [];
      for (const p of m.parts) {
        if (p.kind === 'text') parts.push(new vscode.LanguageModelTextPart(p.text));
        else if (p.kind === 'toolCall') parts.push(new vscode.LanguageModelToolCallPart(p.callId, p.name, p.input));
      }
      out.push(vscode.LanguageModelChatMessage.Assistant(parts));
    } else {
      const parts: (vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart)[] = [];
      for (const p of m.parts) {
        if (p.kind === 'text') parts.push(new vscode.LanguageModelTextPart(p.text));
        else if (p.kind === 'toolResult')
          parts.push(new vscode.LanguageModelToolResultPart(p.callId, resultContent(p.content, p.isError)));
      }
      out.push(vscode.LanguageModelChatMessage.User(parts));
    }
  }
  return out;
}

function toModelError(e: unknown): unknown {
  if (e instanceof vscode.LanguageModelError) return new ModelError(e.code, e.message);
  return e;
}

/** A `ChatModel` on the model the user picked for this chat request. */
export class LmChatModel implements ChatModel {
  constructor(private readonly lm: vscode.LanguageModelChat) {}

  async *send(request: ModelRequest): AsyncIterable<ModelStreamPart> {
    const cts = new vscode.CancellationTokenSource();
    const onAbort = () => cts.cancel();
    request.signal.addEventListener('abort', onAbort);
    if (request.signal.aborted) cts.cancel();
    try {
      const options: vscode.LanguageModelChatRequestOptions = {
        justification: 'zut extensions offer their tools to this chat request.',
      };
      if (request.tools.length) options.tools = request.tools;
      let response: vscode.LanguageModelChatResponse;
      try {
        const messages = toLmMessages(request.messages);
        roundMark('modelSend');
        response = await this.lm.sendRequest(messages, options, cts.token);
      } catch (e) {
        throw toModelError(e);
      }
      try {
        for await (const part of response.stream) {
          roundMark('modelPart');
          if (part instanceof vscode.LanguageModelTextPart) yield { kind: 'text', text: part.value };
          else if (part instanceof vscode.LanguageModelToolCallPart)
            yield { kind: 'toolCall', callId: part.callId, name: part.name, input: asObject(part.input) };
        }
        roundMark('modelEnd');
      } catch (e) {
        throw toModelError(e);
      }
    } finally {
      request.signal.removeEventListener('abort', onAbort);
      cts.dispose();
    }
  }
}

function asObject(input: unknown): Record<string, unknown> {
  return isObject(input) ? input : {};
}
