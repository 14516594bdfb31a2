/**
 * Read-only virtual documents on the `zut:` scheme (a TextDocumentContentProvider): the doctor report, tool results
 * and long `display` output open here, never as untitled buffers that ask to be saved on close. Reopening the same
 * name refreshes the open document; the texts kept are bounded (the oldest are dropped, and an evicted document
 * says so when VS Code asks for it again).
 */
import * as vscode from 'vscode';
import { Disposable } from '../host/events';
import { MAX_ZUT_DOCUMENTS } from '../protocol/limits';

/** The URI scheme of zut's read-only documents. */
const ZUT_DOCUMENT_SCHEME = 'zut';

/** How many document texts are kept (defined in protocol/limits.ts). */
export { MAX_ZUT_DOCUMENTS };

/** The path segment for a name from an extension: letters, digits, `.`, `_`, `-` kept, anything else `_`. */
function documentSegment(name: string): string {
  const s = name.replace(/[^\w.-]+/g, '_').replace(/^\.+/, '_');
  return s === '' ? '_' : s.slice(0, 80);
}

class ZutDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changed.event;
  private serial = 0;

  constructor() {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(ZUT_DOCUMENT_SCHEME, this));
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? 'This zut document is no longer kept: run the command again.\n';
  }

  /** A URI for `segments` (each made path-safe); `unique` appends a counter so each call gets its own document. */
  uri(segments: string[], ext: string, unique = false): vscode.Uri {
    const parts = segments.map(documentSegment);
    if (unique) parts[parts.length - 1] += `-${++this.serial}`;
    return vscode.Uri.from({ scheme: ZUT_DOCUMENT_SCHEME, path: `/${parts.join('/')}.${ext}` });
  }

  /**
   * Sets the text of `uri` and shows it (not as a preview tab); resolves to the shown document. `preview`: a
   * Markdown document is shown rendered (VS Code's Markdown preview), its source where there is no preview.
   */
  async show(uri: vscode.Uri, text: string, options: { language?: string; viewColumn?: vscode.ViewColumn; preview?: boolean } = {}): Promise<vscode.TextDocument> {
    const key = uri.toString();
    this.texts.delete(key);
    this.texts.set(key, text);
    while (this.texts.size > MAX_ZUT_DOCUMENTS) this.texts.delete(this.texts.keys().next().value as string);
    // An open document of this URI re-reads its content.
    this.changed.fire(uri);
    let doc = await vscode.workspace.openTextDocument(uri);
    if (options.language && doc.languageId !== options.language) doc = await vscode.languages.setTextDocumentLanguage(doc, options.language);
    if (options.preview) {
      try {
        await vscode.commands.executeCommand('markdown.showPreview', uri);
        return doc;
      } catch {
        // No Markdown preview in this editor: the source below.
      }
    }
    await vscode.window.showTextDocument(doc, { preview: false, viewColumn: options.viewColumn });
    return doc;
  }
}

let current: ZutDocuments | undefined;

/** Registers the `zut:` content provider; other modules then open documents with `zutDocuments()`. */
export function registerDocuments(context: vscode.ExtensionContext): ZutDocuments {
  const docs = new ZutDocuments();
  current = docs;
  context.subscriptions.push(docs, { dispose: () => void (current === docs ? (current = undefined) : undefined) });
  return docs;
}

/** The registered provider (throws before `registerDocuments`, which `activate` calls first). */
export function zutDocuments(): ZutDocuments {
  if (!current) throw new Error('zut documents are not registered');
  return current;
}
