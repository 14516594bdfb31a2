/**
 * The consent question as the user reads it (VS Code's src/vscode/consent.ts shows it): which extensions, what each
 * runs, what an allowed extension can do (it runs as the user), that the answer is kept for this exact content, and
 * where to change it. A question with an extension never answered in this workspace is `first`: shown as a modal,
 * which cannot be missed (after "Trust Folder" a notification went to the notification centre unseen). A question
 * only about content that changed since it was allowed is a notification: a modal for every `git pull` or edit
 * would be in the way. Extension text (names, descriptions, commands) is data: control characters escaped, cut.
 * VS Code-free.
 */
import { sanitizeText } from '../host/terminalText';
import type { ExtensionInfo } from '../host/types';
import { CONSENT_QUESTION_MAX_LISTED, CONSENT_QUESTION_MAX_LINE } from '../protocol/limits';

/** What the question needs of each pending extension (HostConsent.pendingConsent). */
export type PendingExtension = Pick<ExtensionInfo, 'name' | 'exec' | 'args' | 'description' | 'allowedBefore'>;

export interface ConsentQuestion {
  /** Some extension was never answered here: ask with a modal. */
  first: boolean;
  /** The modal's title line, or the notification's whole text. */
  message: string;
  /** The modal's detail (empty for a notification). */
  detail: string;
}

/** Where the answer can be changed later (the question and README name it alike). */
export const CHANGE_CONSENT_HINT =
  "Change it in the Zut side bar's Extensions view: right-click an extension for Allow, Don't Allow or Revoke Consent.";

export function consentQuestion(pending: readonly PendingExtension[]): ConsentQuestion {
  const n = pending.length;
  const names = pending.map((p) => clean(p.name));
  const first = pending.some((p) => !p.allowedBefore);
  if (!first) {
    return {
      first,
      message: `${list(names)} changed since you allowed ${n === 1 ? 'it' : 'them'}: run the new content? (zut extension${n === 1 ? '' : 's'} from this workspace)`,
      detail: '',
    };
  }
  const listed = pending.slice(0, CONSENT_QUESTION_MAX_LISTED).map(line);
  if (n > listed.length) listed.push(`… and ${n - listed.length} more (each is listed in the Zut side bar's Extensions view)`);
  return {
    first,
    message: n === 1 ? `Allow the zut extension "${names[0]}" from this workspace to run?` : `Allow ${n} zut extensions from this workspace to run?`,
    detail: [
      ...listed,
      '',
      `${n === 1 ? 'It is a program' : 'They are programs'} from this repository (.zut/extensions). Allowed, ${n === 1 ? 'it runs' : 'they run'} as you, ` +
        'with your files, network and credentials, and can add commands, tools the language model calls, panels, ' +
        'status items and guards that see and can block tool calls. Workspace Trust is about VS Code\'s own features; ' +
        'this is about running these programs.',
      '',
      'Your answer is kept in this workspace for exactly this content: if an extension\'s files change, you are asked ' +
        `again. ${CHANGE_CONSENT_HINT}`,
    ].join('\n'),
  };
}

/** `• todo: runs ./todo.mjs — A persistent todo list…`, cut to one line. */
function line(p: PendingExtension): string {
  const runs = p.exec !== undefined ? `runs ${[p.exec, ...(p.args ?? [])].join(' ')}` : 'runs nothing';
  const text = `• ${p.name}: ${runs}${p.description ? ` — ${p.description}` : ''}`;
  return cut(clean(text), CONSENT_QUESTION_MAX_LINE);
}

function list(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** One line of plain text: control characters escaped, line breaks as spaces. */
function clean(s: string): string {
  return sanitizeText(s).replace(/\n/g, ' ');
}

function cut(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}
