/**
 * This window's side of zut's agent plugin: while the route is the plugin's (agentRoute.ts), the window's agent-mode
 * relay listens and is published with its standing token for each workspace folder (src/mcp/windowRendezvous.ts),
 * so the plugin's servers (`zut-host mcp --window`) are served by this window's host; off the route, the files are
 * removed and the token revoked (servers already connected keep their connection until VS Code stops them).
 */
import * as vscode from 'vscode';
import type * as Relay from '../mcp/relayServer';
import { publishMcpWindow } from '../mcp/windowRendezvous';
import type { AgentToolsRoute } from '../ui-model/agentRoute';

export class PluginRelay implements vscode.Disposable {
  private unpublish: (() => void) | undefined;
  private generation = 0;

  constructor(
    private readonly listen: () => Promise<Relay.RelayServer>,
    private readonly log?: (line: string) => void,
  ) {}

  /** Publishes (again, for the folders now) on the plugin's route; withdraws otherwise. */
  follow(route: AgentToolsRoute): void {
    const generation = ++this.generation;
    this.withdraw();
    if (route !== 'plugin') return;
    void this.listen().then(
      (relay) => {
        if (generation !== this.generation) return;
        const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
        const p = publishMcpWindow(relay.address, relay.standingToken(), folders);
        if (p.skipped) this.log?.(`agent plugin: this window's relay is not published: ${p.skipped}`);
        else this.log?.(`agent plugin: this window's relay published for ${folders.length > 0 ? folders.join(', ') : 'a window without a folder'}`);
        this.unpublish = () => {
          p.unpublish();
          relay.revokeStanding();
        };
      },
      (e: unknown) => this.log?.(`agent plugin: the relay did not start: ${e instanceof Error ? e.message : String(e)}`),
    );
  }

  private withdraw(): void {
    this.unpublish?.();
    this.unpublish = undefined;
  }

  dispose(): void {
    this.generation++;
    this.withdraw();
  }
}
