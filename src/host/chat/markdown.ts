/**
 * Markdown helpers for showing extension text in chat as data: no emphasis, links, autolinks, HTML or code spans can
 * come out of it. Imports no `vscode` (src/vscode/chat/render.ts wraps the result in an untrusted MarkdownString).
 */
import { fencedBlock } from '../markdown';

/** Backslash-escapes every ASCII punctuation character (kills emphasis, links, autolinks, HTML); keeps line breaks. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[!-/:-@[-`{-~]/g, '\\$&')
    .replace(/\n/g, '  \n');
}

/** A fenced code block holding `text` verbatim, followed by a line break (a block of the chat response). */
export function codeBlock(text: string): string {
  return fencedBlock(text, 'text') + '\n';
}

/** A name (tool, extension) for inline code: backticks and line breaks removed, length capped. */
export function codeName(name: string | undefined): string {
  return (name ?? '?').replace(/[`\r\n]/g, '').slice(0, 80) || '?';
}
