/**
 * The patch text of `apply_patch` (VS Code's `{input}`, Copilot CLI's freeform string, `{input}` or `{patch}`): the
 * "*** Begin Patch" envelope both parse (vscode-copilot-chat src/extension/tools/node/applyPatch/parser.ts, a port of
 * OpenAI's reference apply_patch.py; Copilot CLI embeds openai/codex codex-rs/apply-patch's grammar). Read here only
 * to show guards each file the patch touches, as zut's tools: an added file as `write {path, content}`, an updated
 * one as `edit {path, edits}` (per `@@` section: context + removed lines → context + added lines), and a deleted or
 * moved one under the tool's own name (`{operation, path, move_to?}`, effect `write`). What this reader cannot take
 * apart is no patch (the row then shows the call as it is). VS Code-free.
 */
import type { CustomRow, GuardView, JsonObject } from './fields';

/** One file of a patch. */
export type PatchFile =
  | { op: 'add'; path: string; content: string }
  | { op: 'delete'; path: string }
  | { op: 'update'; path: string; moveTo?: string; edits: { oldText: string; newText: string }[] };

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const HEADERS = { add: '*** Add File: ', delete: '*** Delete File: ', update: '*** Update File: ', move: '*** Move to: ' } as const;

/** The files of `text`, or undefined when it is not a patch both parsers would take. */
export function parsePatch(text: string): PatchFile[] | undefined {
  const lines = text.trim().split('\n').map((l) => l.replace(/\r$/, ''));
  if (lines[0]?.trim() !== BEGIN) return undefined;
  const files: PatchFile[] = [];
  let i = 1;
  const fileHeader = (l: string) => l.startsWith(HEADERS.add) || l.startsWith(HEADERS.delete) || l.startsWith(HEADERS.update) || l.trim() === END;
  for (;;) {
    const line = lines[i];
    if (line === undefined) break; // VS Code adds a missing end marker
    if (line.trim() === END) break;
    if (line.startsWith(HEADERS.add)) {
      const body: string[] = [];
      for (i++; i < lines.length && lines[i].startsWith('+'); i++) body.push(lines[i].slice(1));
      if (i < lines.length && !fileHeader(lines[i])) return undefined;
      files.push({ op: 'add', path: line.slice(HEADERS.add.length).trim(), content: body.join('\n') });
    } else if (line.startsWith(HEADERS.delete)) {
      files.push({ op: 'delete', path: line.slice(HEADERS.delete.length).trim() });
      i++;
    } else if (line.startsWith(HEADERS.update)) {
      const path = line.slice(HEADERS.update.length).trim();
      i++;
      let moveTo: string | undefined;
      if (lines[i]?.startsWith(HEADERS.move)) moveTo = lines[i++].slice(HEADERS.move.length).trim();
      const edits: { oldText: string; newText: string }[] = [];
      let old: string[] | undefined;
      let now: string[] = [];
      const close = () => {
        if (old && (old.length > 0 || now.length > 0)) edits.push({ oldText: old.join('\n'), newText: now.join('\n') });
      };
      for (; i < lines.length && !fileHeader(lines[i]); i++) {
        const l = lines[i];
        if (l.startsWith('@@')) {
          close();
          old = [];
          now = [];
        } else if (l === '*** End of File') continue;
        else if (l.startsWith('***')) return undefined;
        else {
          old ??= []; // the first section may omit its @@
          const mark = l[0];
          const rest = l.slice(1);
          if (mark === '-') old.push(rest);
          else if (mark === '+') now.push(rest);
          else {
            // A context line (` x`; an empty line; VS Code also takes a line without its leading space).
            const ctx = mark === ' ' ? rest : l;
            old.push(ctx);
            now.push(ctx);
          }
        }
      }
      close();
      if (path === '' || (edits.length === 0 && moveTo === undefined)) return undefined;
      files.push({ op: 'update', path, ...(moveTo !== undefined && { moveTo }), edits });
    } else return undefined;
  }
  return files.length > 0 && files.every((f) => f.path !== '') ? files : undefined;
}

/** The guards' views of a patch's files under `tool` (its own name for what zut has no tool for). */
function patchViews(tool: string, files: PatchFile[]): GuardView[] {
  const views: GuardView[] = [];
  for (const f of files) {
    if (f.op === 'add') views.push({ name: 'write', args: { path: f.path, content: f.content }, effect: 'write' });
    else if (f.op === 'delete') views.push({ name: tool, args: { operation: 'delete', path: f.path }, effect: 'write' });
    else {
      if (f.edits.length > 0) views.push({ name: 'edit', args: { path: f.path, edits: f.edits }, effect: 'write' });
      if (f.moveTo !== undefined) views.push({ name: tool, args: { operation: 'move', path: f.path, move_to: f.moveTo }, effect: 'write' });
    }
  }
  return views;
}

/** The patch text of an `apply_patch` input (`{input}`, `{patch}`), if it has one. */
function patchTextOf(input: JsonObject): string | undefined {
  const t = input.input ?? input.patch;
  return typeof t === 'string' ? t : undefined;
}

/** The `views` of an `apply_patch` row (tool `tool`): one per file; a guard's rewrite of a patch is refused. */
export function patchRowViews(tool: string): CustomRow['views'] {
  return (input) => {
    const text = patchTextOf(input);
    const files = text === undefined ? undefined : parsePatch(text);
    if (!files) return undefined;
    return { views: patchViews(tool, files), back: () => ({ error: `${tool}: a guard's rewrite of a patch cannot be applied (only its block)` }) };
  };
}
