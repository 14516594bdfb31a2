/**
 * Pure helpers of a `@zut` request: the conversation rebuilt from chat history, the `/help` listing.
 * Imports no `vscode` (the adapter hands in a neutral form of `ChatContext.history`).
 */
import type { HostCatalog } from '../api';
import type { ChatMessage } from './model';
import { readTurnMeta, type TurnMeta } from './sessions';

/** A turn of chat history, VS Code-neutral. */
export type HistoryTurn =
  | { kind: 'request'; prompt: string; command?: string }
  | { kind: 'response'; text: string; metadata: unknown };

/** The latest `@zut` response's metadata in the history. */
export function lastTurnMeta(history: HistoryTurn[]): TurnMeta | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const t = history[i];
    if (t.kind !== 'response') continue;
    const meta = readTurnMeta(t.metadata);
    if (meta) return meta;
  }
  return undefined;
}

/**
 * The conversation the model sees: each response's recorded messages (the model's own text, tool calls and
 * results, the prompt it actually got) or, without them, the visible request and response text.
 */
export function historyToMessages(history: HistoryTurn[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  let pending: string | undefined;
  for (const t of history) {
    if (t.kind === 'request') {
      pending = t.command ? `/${t.command} ${t.prompt}`.trim() : t.prompt;
      continue;
    }
    const meta = readTurnMeta(t.metadata);
    if (meta?.messages) out.push(...meta.messages);
    else {
      if (pending) out.push({ role: 'user', parts: [{ kind: 'text', text: pending }] });
      if (t.text) out.push({ role: 'assistant', parts: [{ kind: 'text', text: t.text }] });
    }
    pending = undefined;
  }
  return out;
}

/** The `/help` listing: every extension command and tool, plain text. */
export function helpText(host: HostCatalog): string {
  const lines: string[] = ['@zut commands:', '  /help  list commands and tools', '  /reload  restart every zut extension'];
  const commands = host.commands();
  for (const c of commands) lines.push(`  /${c.name}  ${c.description ?? ''} [${c.ext}]`.trimEnd());
  const tools = host.allTools();
  lines.push('', tools.length ? 'Tools the model can call:' : 'No extension tools.');
  for (const t of tools) {
    const flags = [t.deferred && !t.activated ? 'deferred' : '', t.interactive ? 'interactive' : ''].filter(Boolean);
    lines.push(`  ${t.name}  ${t.description ?? ''} [${t.ext}${flags.length ? `, ${flags.join(', ')}` : ''}]`);
  }
  return lines.join('\n');
}
