/**
 * VS Code-free logic of the command surface: the "Zut: Run Command…" quick-pick items, `/name args` parsing,
 * the mapping of a `command_response` onto what the editor should do, and the ids of the per-command
 * VS Code commands.
 */
import type { CommandReply } from '../host/protocols/types';
import type { PanelSpec } from '../protocol';
import type { CommandInfo, ExtensionInfo } from '../host/types';

/** A quick-pick row for one zut command. `label` is `/name`; the extension name is the detail. */
export interface CommandPickItem {
  label: string;
  description: string;
  detail: string;
  /** The canonical command name (without `/`). */
  name: string;
  /** Not a zut command: the VS Code command this row runs (the way forward when there is no command yet). */
  action?: string;
}

/**
 * What "Run Command…" says while it lists no command, and the row that leads on: in Restricted Mode, that the
 * project's extensions start once the workspace is trusted ("Manage Workspace Trust…"); waiting for consent, that
 * they wait for the user (the Extensions view, with Allow All); starting, to wait.
 */
export function emptyCommandPick(exts: readonly Pick<ExtensionInfo, 'state'>[]): { placeholder: string; items: CommandPickItem[]; busy: boolean } {
  const count = (states: readonly string[]): number => exts.filter((e) => states.includes(e.state)).length;
  const plural = (n: number): string => `${n} project extension${n === 1 ? '' : 's'}`;
  const blocked = count(['blocked']);
  if (blocked > 0) {
    return {
      placeholder: `No zut commands: this workspace is in Restricted Mode, and its ${plural(blocked)} ${blocked === 1 ? 'starts' : 'start'} once you trust it`,
      items: [{ label: '$(workspace-untrusted) Manage Workspace Trust…', description: '', detail: 'Project extensions are programs from the repository', name: '', action: 'zut.manageTrust' }],
      busy: false,
    };
  }
  const waiting = count(['consent']);
  if (waiting > 0) {
    return {
      placeholder: `No zut commands yet: ${plural(waiting)} ${waiting === 1 ? 'waits for you to allow it' : 'wait for you to allow them'}`,
      items: [{ label: '$(check) Review Waiting Extensions…', description: '', detail: 'The Zut side bar: Allow All, or Allow one by one', name: '', action: 'zut.extensions.focus' }],
      busy: false,
    };
  }
  if (count(['starting', 'restarting']) > 0) return { placeholder: 'Waiting for zut extensions to start…', items: [], busy: true };
  return { placeholder: 'No zut commands are available (see the Zut Extensions view)', items: [], busy: false };
}

/** Active commands as quick-pick rows, sorted by name (case-insensitively). */
export function commandPickItems(commands: readonly CommandInfo[]): CommandPickItem[] {
  return commands
    .filter((c) => c.active)
    .map((c) => ({ label: `/${c.name}`, description: c.description ?? '', detail: c.ext, name: c.name }))
    .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));
}

/**
 * The one rule for `/name args` (the palette's `submit_slash`, `@zut /name args`): a `/` (after optional
 * whitespace), a name of non-space characters without `/` (so a path like `/etc/hosts` is not a command), then the
 * arguments, trimmed (the spec's `command_invoked.args`). `command`: VS Code's `request.command` (a command the
 * participant declares), which makes the whole prompt its arguments. Undefined when the text is not a command.
 */
export function parseSlash(text: string, command?: string): { name: string; args: string } | undefined {
  if (command) return { name: command, args: text.trim() };
  const m = /^\s*\/([^\s/]+)(?:\s+([\s\S]*))?$/.exec(text);
  return m ? { name: m[1], args: (m[2] ?? '').trim() } : undefined;
}

/** The VS Code command id that runs zut command `name` (so users can bind keys to it). */
export function commandIdFor(name: string): string {
  return `zut.command.${name}`;
}

/** What to do with a `command_response`. */
export type ResponseAction =
  | { kind: 'prompt'; prompt: string }
  /** zot's `tool_prompt`: run `tool` with `args` through the guarded path, then the prompt, the pair recorded. */
  | { kind: 'tool_prompt'; prompt: string; tool: string; args: Record<string, unknown> }
  | { kind: 'insert'; text: string }
  | { kind: 'display'; text: string }
  | { kind: 'open_panel'; panel: PanelSpec }
  | { kind: 'none'; reason?: string };

/** The fields of a `command_response` that decide what happens. */
export type ResponseFields = Pick<CommandReply, 'action'> &
  Partial<Pick<CommandReply, 'prompt' | 'insert' | 'display' | 'open_panel' | 'error' | 'tool_name' | 'tool_args'>>;

export interface ResponsePlan {
  action: ResponseAction;
  /** Shown as an error message whatever the action (`extension /name: <error>`). */
  error?: string;
}

/**
 * Maps a `command_response` onto an action. Actions with an empty payload do nothing (zut ignores them too);
 * an unknown action does nothing and carries a reason for the log.
 */
export function planResponse(response: ResponseFields): ResponsePlan {
  const error = response.error !== undefined && response.error !== '' ? response.error : undefined;
  const action = ((): ResponseAction => {
    switch (response.action) {
      case 'prompt':
        return response.prompt?.trim() ? { kind: 'prompt', prompt: response.prompt } : { kind: 'none', reason: 'empty prompt' };
      case 'insert':
        return response.insert ? { kind: 'insert', text: response.insert } : { kind: 'none', reason: 'empty insert' };
      case 'display':
        return response.display ? { kind: 'display', text: response.display } : { kind: 'none', reason: 'empty display' };
      case 'open_panel':
        return response.open_panel
          ? { kind: 'open_panel', panel: response.open_panel }
          : { kind: 'none', reason: 'open_panel without a panel' };
      case 'tool_prompt': {
        const args = response.tool_args ?? {};
        if (!response.tool_name) return { kind: 'none', reason: 'tool_prompt without tool_name' };
        if (args === null || typeof args !== 'object' || Array.isArray(args)) return { kind: 'none', reason: 'tool_prompt: tool_args must be a JSON object' };
        return { kind: 'tool_prompt', prompt: response.prompt ?? '', tool: response.tool_name, args: args as Record<string, unknown> };
      }
      case 'noop':
        return { kind: 'none' };
      default:
        // An error-only response often carries no meaningful action; only a stray action is worth a log line.
        return { kind: 'none', reason: error ? undefined : `unknown action ${JSON.stringify(response.action)}` };
    }
  })();
  return error !== undefined ? { action, error } : { action };
}

/** The message shown for a response's `error` (zut's red status line). */
export function responseErrorMessage(ext: string, name: string, error: string): string {
  return `${ext} /${name}: ${error}`;
}

/** The chat query for a `prompt` response: a fresh `@zut` request. */
export function promptQuery(prompt: string): string {
  return `@zut ${prompt}`;
}

/**
 * Which VS Code command ids to add and remove so that exactly the active zut commands have one.
 * `registered` is what is registered now; names compare exactly (ids are case-sensitive).
 */
export function diffCommandIds(
  registered: ReadonlySet<string>,
  commands: readonly CommandInfo[],
): { add: string[]; remove: string[] } {
  const wanted = new Set(commands.filter((c) => c.active).map((c) => c.name));
  return {
    add: [...wanted].filter((n) => !registered.has(n)),
    remove: [...registered].filter((n) => !wanted.has(n)),
  };
}
