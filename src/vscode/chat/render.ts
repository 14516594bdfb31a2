/**
 * Renders the `@zut` loop into a `ChatResponseStream`. Text from extensions (results, reasons, notes, command output)
 * is data: it goes out markdown-escaped in an untrusted MarkdownString, or in a code block — never as live links,
 * command links, HTML or codicons. The model's own text is rendered as ordinary (untrusted) chat markdown.
 */
import * as vscode from 'vscode';
import type { NoteLevel } from '../../host/hostUi';
import type { LoopSink, ToolOutcome } from '../../host/chat/loop';
import { codeBlock, codeName as ident, escapeMarkdown } from '../../host/chat/markdown';

/** An untrusted, HTML-free MarkdownString. */
function safeMarkdown(markdown: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(markdown, false);
  md.isTrusted = false;
  md.supportHtml = false;
  md.supportThemeIcons = false;
  return md;
}

const NOTE_PREFIX: Record<NoteLevel, string> = { info: 'ℹ', success: '✓', warn: '⚠', error: '✗' };

/** A `LoopSink` on one chat response, plus what participant.ts adds (notes, plain text blocks). */
export class ChatSink implements LoopSink {
  private endsWithNewline = true;
  /** Everything streamed, in order (`progress: …` for progress lines): the response as the user saw it. */
  readonly transcript: string[] = [];

  constructor(private readonly stream: vscode.ChatResponseStream) {}

  private markdown(md: string): void {
    this.transcript.push(md);
    this.stream.markdown(safeMarkdown(md));
  }

  /** Model text (streamed chunks or a whole message), or an extension's replacement (escaped). */
  text(text: string, origin: 'model' | 'extension' = 'model'): void {
    if (!text) return;
    if (origin === 'extension') return this.plain(text);
    this.markdown(text);
    this.endsWithNewline = text.endsWith('\n');
  }

  /** Text from an extension shown as if it were a message (an `assistant_message` replacement): escaped. */
  plain(text: string): void {
    this.block(escapeMarkdown(text));
  }

  toolStarted(call: { name: string; ext?: string }): void {
    this.progress(`Running \`${ident(call.name)}\` (\`${ident(call.ext)}\`)…`);
  }

  /** A running tool's streamed output (e's `tool.update`): its last line, escaped, as progress. */
  toolProgress(call: { name: string; ext?: string }, text: string): void {
    const line = text.split(/\r?\n/).filter((l) => l.trim() !== '').pop()?.trim();
    if (line) this.progress(`\`${ident(call.name)}\`: ${escapeMarkdown(line)}`);
  }

  toolFinished(o: ToolOutcome): void {
    const mark = o.status === 'ok' ? '✓' : o.status === 'blocked' ? '⛔' : o.status === 'cancelled' ? '◼' : '✗';
    const head = `${mark} \`${ident(o.name)}\` (\`${ident(o.ext)}\`)`;
    this.block(o.summary ? `${head}: ${escapeMarkdown(o.summary)}` : head);
  }

  notice(kind: 'blocked' | 'error' | 'info', text: string): void {
    const label = kind === 'blocked' ? '**Blocked.** ' : kind === 'error' ? '**Error.** ' : '';
    this.block(label + escapeMarkdown(text));
  }

  /** A note from an extension (`notify`) during this request. */
  note(ext: string, level: NoteLevel, text: string): void {
    this.block(`${NOTE_PREFIX[level]} [${escapeMarkdown(ext)}] ${escapeMarkdown(text)}`);
  }

  /** Command output (`display`) or a listing, verbatim in a code block. */
  code(text: string): void {
    this.block(codeBlock(text));
  }

  progress(text: string): void {
    this.transcript.push(`progress: ${text}`);
    this.stream.progress(text);
  }

  /** A paragraph of already-safe markdown, separated from whatever came before. */
  private block(markdown: string): void {
    const sep = this.endsWithNewline ? '\n' : '\n\n';
    this.markdown(`${sep}${markdown}\n\n`);
    this.endsWithNewline = true;
  }
}
