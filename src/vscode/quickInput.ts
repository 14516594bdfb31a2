/**
 * The show → accept → hide → dispose cycle of a VS Code `QuickPick` / `InputBox`, shared by the surfaces that ask
 * something with one. Map; don't decide.
 */
import type * as vscode from 'vscode';

/**
 * Shows `input` and resolves once it hides (it is disposed first). On accept, `onAccept` may call `done(answer)`:
 * the input hides and the promise resolves with that answer; not calling it keeps the input open. Hidden any other
 * way (Escape, focus lost, `signal` aborted) it resolves `undefined`.
 */
export function untilHidden<T>(
  input: vscode.QuickInput & { readonly onDidAccept: vscode.Event<void> },
  onAccept: (done: (answer: T) => void) => void,
  signal?: AbortSignal,
): Promise<T | undefined> {
  return new Promise((resolve) => {
    let answer: T | undefined;
    const abort = (): void => input.hide();
    signal?.addEventListener('abort', abort, { once: true });
    input.onDidAccept(() =>
      onAccept((a) => {
        answer = a;
        input.hide();
      }),
    );
    input.onDidHide(() => {
      signal?.removeEventListener('abort', abort);
      input.dispose();
      resolve(answer);
    });
    input.show();
  });
}
