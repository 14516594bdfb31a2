/**
 * Questions extensions ask the user (HostUi `ask`; e's `ui.select`, `ui.confirm`, `ui.input`) shown natively: a
 * QuickPick, a modal Yes/No message, an InputBox (masked for `secret`). One question shows at a time across all
 * extensions (e: "one modal shows at a time"); the others wait their turn. An extension that goes away (its signal
 * aborts) takes its question down. Question text is data: codicons and links are escaped. Map; don't decide.
 */
import * as vscode from 'vscode';
import type { Answer, Question, QuestionOption } from '../host/hostUi';
import { SerialQueue } from '../host/extensions/serialQueue';
import { untilHidden } from './quickInput';
import { escapeIcons, escapeNotificationLinks } from '../ui-model/statusModel';

interface OptionItem extends vscode.QuickPickItem {
  option: QuestionOption;
}

/** Shows one question at a time; `ask` is the HostUi method. */
export class QuestionSurface {
  private readonly queue = new SerialQueue();

  /** Waits for earlier questions, then asks this one. Resolves `undefined` when dismissed or aborted. */
  ask<Q extends Question>(ext: string, q: Q, signal: AbortSignal): Promise<Answer<Q> | undefined> {
    const turn = () => (signal.aborted ? Promise.resolve(undefined) : this.show(ext, q, signal));
    return this.queue.run(turn) as Promise<Answer<Q> | undefined>;
  }

  private show(ext: string, q: Question, signal: AbortSignal): Promise<unknown> {
    const title = `${ext}: ${q.title}`;
    switch (q.kind) {
      case 'select':
        return pick(title, q.options, signal);
      case 'confirm':
        return confirm(title, q.message);
      case 'input':
        return input(title, q, signal);
    }
  }
}

function pick(title: string, options: QuestionOption[], signal: AbortSignal): Promise<QuestionOption | undefined> {
  const qp = vscode.window.createQuickPick<OptionItem>();
  qp.title = escapeIcons(title);
  qp.items = options.map((option) => ({ label: escapeIcons(option.label), ...(option.description && { description: escapeIcons(option.description) }), option }));
  qp.matchOnDescription = true;
  // Accepting with nothing selected is a dismissal: it hides, answering undefined.
  return untilHidden(qp, (done) => done(qp.selectedItems[0]?.option), signal);
}

/** A modal Yes/No; closing it is a dismissal. (A modal cannot be taken down when the extension goes away.) */
async function confirm(title: string, message: string | undefined): Promise<boolean | undefined> {
  const detail = message === undefined ? {} : { detail: escapeNotificationLinks(message) };
  const choice = await vscode.window.showInformationMessage(escapeNotificationLinks(title), { modal: true, ...detail }, 'Yes', 'No');
  return choice === undefined ? undefined : choice === 'Yes';
}

function input(title: string, q: Extract<Question, { kind: 'input' }>, signal: AbortSignal): Promise<string | undefined> {
  const box = vscode.window.createInputBox();
  box.title = escapeIcons(title);
  box.password = q.secret === true;
  if (q.placeholder !== undefined) box.placeholder = q.placeholder;
  if (q.prefill !== undefined) box.value = q.prefill;
  return untilHidden(box, (done) => done(box.value), signal);
}
