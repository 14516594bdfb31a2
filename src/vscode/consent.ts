/**
 * The consent prompt: when project extensions wait for consent (host/consent.ts decides which), ONE notification
 * for everything pending — "This workspace wants to run N zut extensions: a, b, c" — with Allow, Review… (the
 * Extensions view, where each row has Allow / Don't Allow) and Don't Allow. A prompt already showing is not
 * repeated; its answer applies to whatever is pending when the user answers.
 */
import * as vscode from 'vscode';
import type { ExtensionHost } from '../host/api';
import { consentPrompt } from '../host/consent';

/** Shows the prompt whenever the host asks (and once at registration if something already waits). */
export function registerConsentPrompt(context: vscode.ExtensionContext, host: ExtensionHost): void {
  let showing = false;
  const ask = async (): Promise<void> => {
    if (showing) return;
    const pending = host.pendingConsent();
    if (pending.length === 0) return;
    showing = true;
    try {
      const answer = await vscode.window.showWarningMessage(consentPrompt(pending.map((e) => e.name)), 'Allow', 'Review…', "Don't Allow");
      const names = host.pendingConsent().map((e) => e.name);
      if (answer === 'Allow') await host.answerConsent(names, 'allow');
      else if (answer === "Don't Allow") await host.answerConsent(names, 'deny');
      else if (answer === 'Review…') await vscode.commands.executeCommand('zut.extensions.focus');
    } finally {
      showing = false;
    }
  };
  context.subscriptions.push(host.onDidRequestConsent(() => void ask().catch(() => undefined)));
  void ask().catch(() => undefined);
}
