/**
 * "Zut: New Extension…" (palette and the Extensions view title): asks for the language, the name and the place
 * (a project's `.zut/extensions` or the zut home), writes the extension with the shared generator
 * (src/host/authoring/newExtension.ts), starts it, and opens its main file. Saving the file restarts it (host.ts watches
 * each extension's executable). Arguments (`{ lang, name, where }`, where = `project` | `global` | a folder)
 * skip the questions, for scripts and tests.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type * as Authoring from '../host/authoring/newExtension';
import type { NewExtension, NewExtensionLang } from '../host/authoring/newExtension';
import { lazyBundle } from './lazyBundle';
import type { HostConsent } from '../host/api';
import type { HostControl } from './host';
import { destinationRoot, pickDestination } from './pickExtension';

interface NewExtensionArgs {
  lang?: string;
  name?: string;
  where?: string;
}

export function registerNewExtension(context: vscode.ExtensionContext, host: Pick<HostConsent, 'allowOwnContent'>, control: HostControl): void {
  const sdkDir = path.join(context.extensionPath, 'dist', 'sdk');
  // The generator and its templates: dist/new-extension.js, loaded when the command first runs (lazyBundle.ts).
  const load = lazyBundle<typeof Authoring>(context, 'new-extension');
  context.subscriptions.push(
    vscode.commands.registerCommand('zut.newExtension', async (arg?: unknown): Promise<NewExtension | undefined> => {
      const a: NewExtensionArgs = typeof arg === 'object' && arg !== null && !('info' in arg) ? (arg as NewExtensionArgs) : {};
      const authoring = load();
      const lang = a.lang !== undefined && authoring.isNewExtensionLang(a.lang) ? a.lang : await pickLang(authoring);
      if (!lang) return undefined;
      const name = a.name ?? (await askName(authoring));
      if (!name) return undefined;
      const root = a.where !== undefined ? destinationRoot(a.where, control.zutHome()) : await pickDestination(control.zutHome(), 'Zut: New Extension (3/3)');
      if (!root) return undefined;
      try {
        // What the user creates here is theirs: consent is recorded for exactly the files written (gates.ts).
        const dest = path.join(root, name);
        const made = await control.exclusive(() => authoring.createNewExtension({ lang, name, root, sdkDir, beforeCommit: (staging) => host.allowOwnContent(staging, dest) }));
        await control.reload(`created ${made.name}`);
        await vscode.window.showTextDocument(vscode.Uri.file(made.mainFile), { preview: false });
        void vscode.window.showInformationMessage(
          `Created zut extension "${made.name}" in ${made.dir}: run /${made.command} with "Zut: Run Command…"; saving ${path.basename(made.mainFile)} restarts it.`,
        );
        return made;
      } catch (e) {
        void vscode.window.showErrorMessage(`New zut extension: ${e instanceof Error ? e.message : String(e)}`);
        return undefined;
      }
    }),
  );
}

async function pickLang({ NEW_EXTENSION_LANGS, LANG_LABELS }: typeof Authoring): Promise<NewExtensionLang | undefined> {
  const items = NEW_EXTENSION_LANGS.map((l) => ({ label: LANG_LABELS[l].split(' (')[0]!, description: LANG_LABELS[l].slice(LANG_LABELS[l].indexOf('(')), lang: l }));
  return (await vscode.window.showQuickPick(items, { title: 'Zut: New Extension (1/3)', placeHolder: 'Language', ignoreFocusOut: true }))?.lang;
}

function askName({ newExtensionNameProblem }: typeof Authoring): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: 'Zut: New Extension (2/3)',
    ignoreFocusOut: true,
    prompt: 'Name (lower-case letters, digits and dashes): also its command /name',
    placeHolder: 'my-extension',
    validateInput: (v) => (v === '' ? undefined : newExtensionNameProblem(v)),
  });
}
