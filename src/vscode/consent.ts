/**
 * The consent prompt: when project extensions wait for consent (host/consent.ts decides which), ONE notification
 * for everything pending — "This workspace wants to run N zut extensions: a, b, c" — with Allow, Review… (the
 * Extensions view, where each row has Allow / Don't Allow) and Don't Allow. The answer applies to the extensions the
 * prompt named; requests that arrive while it shows are asked in one more prompt afterwards.
 */
import * as vscode from 'vscode';
import type { HostConsent } from '../host/api';
import { consentPrompt } from '../host/extensions/consent';

/** Shows the prompt whenever the host asks (and once at registration if something already waits). */
export function registerConsentPrompt(context: vscode.ExtensionContext, host: HostConsent): void {
  let showing = false;
  let again = false;
  const ask = async (): Promise<void> => {
    if (showing) {
      again = true;
      return;
    }
    const pending = host.pendingConsent();
    const names = pending.map((e) => e.name);
    if (names.length === 0) return;
    // The content each was asked for: Allow for content changed while the question showed asks again (gates.ts).
    const seen = Object.fromEntries(pending.flatMap((e) => (e.fingerprint ? [[e.name, e.fingerprint]] : [])));
    showing = true;
    try {
      const answer = await vscode.window.showWarningMessage(consentPrompt(names), 'Allow', 'Review…', "Don't Allow");
      // Only those still waiting (a row's Allow may have answered some meanwhile).
      const still = names.filter((n) => host.pendingConsent().some((e) => e.name === n));
      if (answer === 'Allow') await host.answerConsent(still, 'allow', seen);
      else if (answer === "Don't Allow") await host.answerConsent(still, 'deny', seen);
      else if (answer === 'Review…') await vscode.commands.executeCommand('zut.extensions.focus');
    } finally {
      showing = false;
    }
    if (again) {
      again = false;
      await ask();
    }
  };
  context.subscriptions.push(host.onDidRequestConsent(() => void ask().catch(() => undefined)));
  void ask().catch(() => undefined);
}
