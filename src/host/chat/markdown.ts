/**
 * Markdown helpers for showing extension text in chat as data: no emphasis, links, autolinks, HTML or code spans can
 * come out of it. Imports no `vscode` (src/vscode/chat/render.ts wraps the result in an untrusted MarkdownString).
 */

/** Backslash-escapes every ASCII punctuation character (kills emphasis, links, autolinks, HTML); keeps line breaks. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[!-/:-@[-`{-~]/g, '\\$&')
    .replace(/\n/g, '  \n');
}

/** A fenced code block holding `text` verbatim (the fence is longer than any backtick run inside). */
export function codeBlock(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}text\n${text}\n${fence}\n`;
}

/** A name (tool, extension) for inline code: backticks and line breaks removed, length capped. */
export function codeName(name: string | undefined): string {
  return (name ?? '?').replace(/[`\r\n]/g, '').slice(0, 80) || '?';
}
