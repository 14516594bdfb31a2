/**
 * Questions extensions ask the user (HostUi `ask`; e's `ui.select`, `ui.confirm`, `ui.input`) shown natively: a
 * QuickPick, a modal Yes/No message, an InputBox (masked for `secret`). One question shows at a time across all
 * extensions (e: "one modal shows at a time"); the others wait their turn. An extension that goes away (its signal
 * aborts) takes its question down. Question text is data: codicons and links are escaped. Map; don't decide: which
 * questions may be asked at all (a rate per extension, "Don't ask again" on the modal) is QuestionGate's
 * (src/ui-model/questionGate.ts); a refused question rejects, which the extension gets as an error answer.
 */
import * as vscode from 'vscode';
import type { Answer, Question, QuestionOption } from '../host/hostUi';
import { SerialQueue } from '../host/extensions/serialQueue';
import { QuestionGate } from '../ui-model/questionGate';
import { untilHidden } from './quickInput';
import { escapeIcons, escapeNotificationLinks } from '../ui-model/statusModel';

interface OptionItem extends vscode.QuickPickItem {
  option: QuestionOption;
}

/** Shows one question at a time; `ask` is the HostUi method. */
export class QuestionSurface {
  private readonly queue = new SerialQueue();
  private readonly gate = new QuestionGate();

  /**
   * Waits for earlier questions, then asks this one. Resolves `undefined` when dismissed or aborted; rejects
   * (`QuestionRefusedError`) past the extension's rate or after "Don't ask again" — also for questions that were
   * waiting their turn when the user chose it.
   */
  ask<Q extends Question>(ext: string, q: Q, signal: AbortSignal): Promise<Answer<Q> | undefined> {
    try {
      this.gate.admit(ext);
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    const turn = () => {
      if (signal.aborted) return Promise.resolve(undefined);
      this.gate.stillAllowed(ext);
      return this.show(ext, q, signal);
    };
    return this.queue.run(turn) as Promise<Answer<Q> | undefined>;
  }

  private show(ext: string, q: Question, signal: AbortSignal): Promise<unknown> {
    const title = `${ext}: ${q.title}`;
    switch (q.kind) {
      case 'select':
        return pick(title, q.options, signal);
      case 'confirm':
        return confirm(title, q.message, () => this.gate.silence(ext));
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

/** The modal's third button: this answer is a dismissal, and the extension's later questions are refused. */
const DONT_ASK_AGAIN = "Don't ask again";

/**
 * A modal Yes/No/Don't ask again; closing it is a dismissal. (A modal cannot be taken down when the extension goes
 * away.)
 */
async function confirm(title: string, message: string | undefined, silence: () => void): Promise<boolean | undefined> {
  const detail = message === undefined ? {} : { detail: escapeNotificationLinks(message) };
  const choice = await vscode.window.showInformationMessage(escapeNotificationLinks(title), { modal: true, ...detail }, 'Yes', 'No', DONT_ASK_AGAIN);
  if (choice === DONT_ASK_AGAIN) silence();
  return choice === undefined || choice === DONT_ASK_AGAIN ? undefined : choice === 'Yes';
}

function input(title: string, q: Extract<Question, { kind: 'input' }>, signal: AbortSignal): Promise<string | undefined> {
  const box = vscode.window.createInputBox();
  box.title = escapeIcons(title);
  box.password = q.secret === true;
  if (q.placeholder !== undefined) box.placeholder = q.placeholder;
  if (q.prefill !== undefined) box.value = q.prefill;
  return untilHidden(box, (done) => done(box.value), signal);
}
