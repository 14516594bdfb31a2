/**
 * `zut-host hook`'s fast path in a window: a HookServer (src/hooks/server.ts, built apart as dist/hook-server.js and
 * loaded here at run time, outside dist/extension.js's size limit) for this window's workspace folders, so an agent's
 * hook answers with the guards already running, consented and warm here instead of a headless host. The rendezvous
 * files go when the window closes.
 */
import * as vscode from 'vscode';
import type { ExtensionHost } from '../host/api';
import type * as Server from '../hooks/server';
import { lazyBundle } from './lazyBundle';

/** What the doctor report says of this window and agents' hooks (one line), once it is known. */
let status: string | undefined;
export function agentHooksStatus(): string[] {
  return status ? [status] : [];
}

export function registerAgentHooks(context: vscode.ExtensionContext, host: ExtensionHost, log: (line: string) => void): void {
  const folders = vscode.workspace.workspaceFolders?.filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath) ?? [];
  if (folders.length === 0) return;
  // Any failure (no dist/hook-server.js, no private directory, no socket): hooks for these folders reach the warm
  // headless host instead (without this window's consented project extensions) — said in the log and the doctor.
  const fail = (e: unknown) => {
    status = `this window cannot answer agents' hooks (${e instanceof Error ? e.message : String(e)}): zut-host hook uses the warm headless host for ${folders.join(', ')}, without this window's project extensions`;
    log(`hooks: ${status}`);
  };
  void Promise.resolve()
    .then(() => lazyBundle<typeof Server>(context, 'hook-server')().HookServer.listen(host, folders))
    .then((s) => {
      if (typeof s === 'string') return fail(s);
      status = `this window answers agents' hooks for ${folders.join(', ')} (${s.address})`;
      log(`hooks: zut-host hook answers here (${s.address})`);
      context.subscriptions.push({ dispose: () => s.dispose() });
    }, fail);
}
