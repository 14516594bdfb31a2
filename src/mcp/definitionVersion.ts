/**
 * The `version` of the agent-mode MCP server definition: VS Code's cache key for the server's tool list.
 *
 * VS Code (1.139, McpService.updateCollectedServers) STOPS a running server as soon as its definition changes, and a
 * new `version` is a changed definition. It restarts it only when something starts it again (a chat request's
 * autostart, `chat.mcp.autostart`: newAndOutdated; or a tool call). Until then `vscode.lm.tools` keeps the stopped
 * server's cached tools: a tool added or brought back is missing, a removed one still listed.
 *
 * So the published version follows the tool list only while no relay is connected or starting (VS Code then knows
 * its cache is outdated). While a relay is connected (or VS Code is starting one) the version stays and the live connection tells VS Code of the change
 * (`notifications/tools/list_changed`, after which VS Code lists the tools again and refreshes its cache). When the
 * last relay goes away the version catches up with the list.
 */

/** What `update` asks the caller to do. */
export interface VersionStep {
  /** Fire `onDidChangeMcpServerDefinitions` (the published version changed). */
  readonly fireChanged: boolean;
  /** Send `notifications/tools/list_changed` to the connected relays (they check whether their list changed). */
  readonly refreshLive: boolean;
}

/** The published definition version of the agent-mode server. */
export class DefinitionVersion {
  private published: string;

  /** `initial`: the tool list's signature (or `OFF`) when the provider is registered. */
  constructor(initial: string) {
    this.published = initial;
  }

  /** The version offered to VS Code now (`provideMcpServerDefinitions`). */
  get current(): string {
    return this.published;
  }

  /**
   * The tool list's signature is now `signature` (`OFF` when agent tools are turned off); `live` relays are connected
   * or starting.
   * Turning agent tools off or on always changes the definition (the server goes away or comes back).
   */
  update(signature: string, live: number): VersionStep {
    const toggled = (signature === OFF) !== (this.published === OFF);
    if (signature === this.published) return { fireChanged: false, refreshLive: live > 0 };
    if (live > 0 && !toggled) return { fireChanged: false, refreshLive: true };
    this.published = signature;
    return { fireChanged: true, refreshLive: live > 0 };
  }
}

/** The version while agent tools are turned off (`zut.agentTools.enabled`: false; no definition is offered). */
export const OFF = 'off';
