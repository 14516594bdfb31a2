/**
 * The small model interface the `@zut` chat loop talks to. The VS Code adapter (src/vscode/chat/lmModel.ts) wraps a
 * `vscode.LanguageModelChat`; unit tests use a scripted model. Imports no `vscode`.
 */

/** A piece of a tool result as the model receives it. */
export type ResultPart = { kind: 'text'; text: string } | { kind: 'image'; mime: string; data: Uint8Array };

/** A piece of a conversation message. */
export type MessagePart =
  | { kind: 'text'; text: string }
  | { kind: 'toolCall'; callId: string; name: string; input: Record<string, unknown> }
  | { kind: 'toolResult'; callId: string; content: ResultPart[]; isError: boolean };

/** One conversation message. Tool calls live in assistant messages, tool results in user messages. */
export interface ChatMessage {
  role: 'user' | 'assistant';
  parts: MessagePart[];
}

/** A tool offered to the model (`LanguageModelChatTool`). */
export interface ModelTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** One model request. */
export interface ModelRequest {
  messages: ChatMessage[];
  tools: ModelTool[];
  /** Aborted when the user presses Stop. */
  signal: AbortSignal;
}

/** What the model streams back. */
export type ModelStreamPart =
  | { kind: 'text'; text: string }
  | { kind: 'toolCall'; callId: string; name: string; input: Record<string, unknown> };

/** A model: one streamed response per request. Throws `ModelError` for model-side failures. */
export interface ChatModel {
  send(request: ModelRequest): AsyncIterable<ModelStreamPart>;
}

/** A failure reported by the model (the adapter maps `vscode.LanguageModelError` to it, keeping its `code`). */
export class ModelError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}
