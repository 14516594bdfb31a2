/**
 * The consent question (the host decides who waits: host/extensions/consent.ts; the words: ui-model/consentQuestion.ts):
 * ONE question for everything pending. When an extension was never answered in this workspace (the first trust of a
 * folder, a new extension from a `git pull`) it is a modal naming each extension and what it runs, what an allowed
 * extension can do, that the answer is kept per content and where to change it: Allow, Review… (the Extensions
 * view, with Allow All on its title and Allow / Don't Allow per row) or Don't Allow; Cancel leaves them waiting
 * (not asked again in this window for that content).
 * Content that changed since it was allowed asks with a notification instead. The answer applies to the
 * extensions the question named; requests that arrive while it shows are asked in one more question afterwards.
 */
import * as vscode from 'vscode';
import type { HostConsent } from '../host/api';
import { consentQuestion } from '../ui-model/consentQuestion';

const ALLOW = 'Allow';
const REVIEW = 'Review…';
const DENY = "Don't Allow";

/** Shows the question whenever the host asks (and once at registration if something already waits). */
export function registerConsentPrompt(context: vscode.ExtensionContext, host: HostConsent): void {
  let showing = false;
  let again = false;
  // Content the user put off (Cancel, Review…) in this window: not asked again by the next reload; its row, the
  // view's badge and Allow All stay. New extensions and changed content are asked.
  const putOff = new Set<string>();
  const key = (e: { name: string; fingerprint?: string | undefined }): string => `${e.name}\0${e.fingerprint ?? ''}`;
  const ask = async (): Promise<void> => {
    if (showing) {
      again = true;
      return;
    }
    const pending = host.pendingConsent().filter((e) => !putOff.has(key(e)));
    const names = pending.map((e) => e.name);
    if (names.length === 0) return;
    // The content each was asked for: Allow for content changed while the question showed asks again (gates.ts).
    const seen = Object.fromEntries(pending.flatMap((e) => (e.fingerprint ? [[e.name, e.fingerprint]] : [])));
    const q = consentQuestion(pending);
    showing = true;
    try {
      const answer = q.first
        ? await vscode.window.showWarningMessage(q.message, { modal: true, detail: q.detail }, ALLOW, REVIEW, DENY)
        : await vscode.window.showWarningMessage(q.message, ALLOW, REVIEW, DENY);
      // Only those still waiting (a row's Allow may have answered some meanwhile).
      const still = names.filter((n) => host.pendingConsent().some((e) => e.name === n));
      if (answer === ALLOW) await host.answerConsent(still, 'allow', seen);
      else if (answer === DENY) await host.answerConsent(still, 'deny', seen);
      else {
        for (const e of pending) putOff.add(key(e));
        if (answer === REVIEW) await vscode.commands.executeCommand('zut.extensions.focus');
      }
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
