// TEST ONLY (npm run bench:ui): the activation floor of row 3b, `yo code`'s hello-world extension (one command),
// activated on the same events as zut-vscode (package.json: a workspace with .zut/extensions activates both as the
// window starts, onStartupFinished any other) in the same window. Its activate() times itself as zut-vscode's does
// (performance.now() around the body) and leaves the figure in globalThis.__zutBenchHello.
'use strict';
const vscode = require('vscode');

function activate(context) {
  const t0 = performance.now();
  console.log('Congratulations, your extension "bench-hello" is now active!');
  context.subscriptions.push(vscode.commands.registerCommand('benchHello.helloWorld', () => {
    vscode.window.showInformationMessage('Hello World from bench-hello!');
  }));
  globalThis.__zutBenchHello = { activateMs: performance.now() - t0 };
}

module.exports = { activate, deactivate() {} };
