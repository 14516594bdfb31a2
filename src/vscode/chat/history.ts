/**
 * `ChatContext.history` → the VS Code-neutral `HistoryTurn`s the chat core reads (session metadata from
 * `ChatResponseTurn.result.metadata`, visible text as a fallback).
 */
import * as vscode from 'vscode';
import type { HistoryTurn } from '../../host/chat/conversation';

/** The participant id (package.json `contributes.chatParticipants`). */
export const PARTICIPANT_ID = 'zut.chat';

export function toHistory(history: ReadonlyArray<vscode.ChatRequestTurn | vscode.ChatResponseTurn>): HistoryTurn[] {
  const out: HistoryTurn[] = [];
  for (const turn of history) {
    if (turn.participant !== PARTICIPANT_ID) continue;
    // Duck-typed: history entries are plain copies in some VS Code builds.
    if ('prompt' in turn) {
      out.push({ kind: 'request', prompt: turn.prompt, command: turn.command });
    } else if ('response' in turn) {
      const text = turn.response
        .map((p) => {
          const value = (p as { value?: unknown }).value;
          return value instanceof vscode.MarkdownString || typeof (value as { value?: unknown })?.value === 'string'
            ? (value as vscode.MarkdownString).value
            : '';
        })
        .join('');
      out.push({ kind: 'response', text, metadata: turn.result.metadata });
    }
  }
  return out;
}
