/**
 * Which questions an extension may still ask the user (issue 20: an e extension could raise modal `ui.confirm`
 * dialogs back to back). Per extension, for this session: at most `QUESTIONS_PER_WINDOW` questions per
 * `QUESTION_WINDOW_MS` (sliding), and none at all once the user picked "Don't ask again" for it. A refused question
 * is an error answer to the extension (`QuestionRefusedError`), never a dialog. Imports no `vscode`.
 */
import { QUESTION_WINDOW_MS, QUESTIONS_PER_WINDOW } from '../protocol/limits';

export class QuestionRefusedError extends Error {
  constructor(ext: string, why: string) {
    super(`question refused: ${ext} ${why}`);
    this.name = 'QuestionRefusedError';
  }
}

export class QuestionGate {
  /** When each extension's recent questions were asked (ms), oldest first. */
  private readonly asked = new Map<string, number[]>();
  private readonly silenced = new Set<string>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts a question from `ext`, or throws `QuestionRefusedError` saying why it may not be asked. */
  admit(ext: string): void {
    const key = ext.toLowerCase();
    this.stillAllowed(ext);
    const t = this.now();
    const recent = (this.asked.get(key) ?? []).filter((at) => t - at < QUESTION_WINDOW_MS);
    if (recent.length >= QUESTIONS_PER_WINDOW) {
      this.asked.set(key, recent);
      throw new QuestionRefusedError(ext, `asked ${QUESTIONS_PER_WINDOW} questions in the last ${QUESTION_WINDOW_MS / 1000} s (the limit); ask again later`);
    }
    recent.push(t);
    this.asked.set(key, recent);
  }

  /** Throws `QuestionRefusedError` if `ext` was silenced since its question was admitted (it waited its turn). */
  stillAllowed(ext: string): void {
    if (this.silenced.has(ext.toLowerCase())) throw new QuestionRefusedError(ext, 'may not ask again this session (the user chose "Don\'t ask again")');
  }

  /** The user chose "Don't ask again" for `ext`: its questions are refused until the window reloads. */
  silence(ext: string): void {
    const key = ext.toLowerCase();
    this.silenced.add(key);
    this.asked.delete(key);
  }
}
