/**
 * The MCP server for VS Code's agent mode: zut tools offered to agent mode (and any chat that uses `vscode.lm.tools`)
 * as an MCP server definition of ours, `node dist/mcp-relay.js`, which VS Code starts and which connects back to
 * this extension host over a private socket (src/mcp/relayServer.ts, loaded from dist/relay-server.js when VS Code
 * first starts the server) with a token made for that start. Every call takes the host's guarded path.
 * `version` (VS Code's cache key) is a signature of the offered tools, so it changes when the list does, except while
 * a relay is connected: VS Code stops a running server whose definition changed, so a live server hears
 * `tools/list_changed` instead (src/mcp/definitionVersion.ts).
 * Settings: `zut.agentTools.enabled`, `zut.agentTools.exclude`. Maps; the MCP logic lives in src/mcp/.
 */
import * as vscode from 'vscode';
import type { HostCalls, HostCatalog, HostSessions } from '../host/api';
import { onSettled, type Event } from '../host/events';
import type { ToolInfo } from '../host/types';
import { activeSkills } from '../host/chat/skills';
import { DefinitionVersion, OFF } from '../mcp/definitionVersion';
import { RELAY_ENV } from '../mcp/limits';
import { CHANGE_SETTLE_MS } from '../protocol/limits';
import type * as Relay from '../mcp/relayServer';
import type { ExtensionProgress } from '../mcp/server';
import { buildCatalog, offeredThroughMcp, type CatalogFilter } from '../mcp/tools';
import type { ZutSettings } from '../ui-model/settings';
import { zutSettings } from './settingsRead';
import { lazyBundle } from './lazyBundle';
import { MCP_SERVER_NAME } from '../hooks/names';
import { currentRoute, registerAgentRoute } from './agentRoute';
import { PluginRelay } from './pluginRelay';

/** `contributes.mcpServerDefinitionProviders[].id` in package.json. */
const MCP_PROVIDER_ID = 'zut.agentTools';
/** The server's label: VS Code names its tools `mcp_<label>_<tool>`. */
export const MCP_SERVER_LABEL = MCP_SERVER_NAME;

const settings = (): ZutSettings => zutSettings().settings;

/** The agent-mode filter: the exclude setting; interactive tools are fine (a person is at this window). */
const filter: CatalogFilter = { origin: 'agent', exclude: () => settings().agentToolsExclude };

/**
 * For the Extensions view: the model-facing name under which `tool` is offered to agent mode now, or undefined
 * (agent tools off, excluded, deferred and not activated).
 */
export function agentToolName(host: Pick<HostCatalog, 'tools'>, tool: ToolInfo): string | undefined {
  if (currentRoute() !== 'provider' || !offeredThroughMcp(tool, filter)) return undefined;
  if (!host.tools().some((t) => t.name === tool.name && t.ext === tool.ext)) return undefined;
  return buildCatalog(host.tools(), filter).names.toModel(tool.name);
}

/** Registers the MCP server definition provider; the relay socket opens when VS Code first starts the server. */
export function registerAgentModeMcpServer(
  context: vscode.ExtensionContext,
  host: HostCatalog & HostCalls & HostSessions,
  progress?: Event<ExtensionProgress>,
  log?: (line: string) => void,
): void {
  const changed = new vscode.EventEmitter<void>();
  const onRoute = registerAgentRoute(context, log);
  let server: Promise<Relay.RelayServer> | undefined;
  /** The relay server once listening (its relays, running or starting, decide whether a change keeps the version). */
  let relay: Relay.RelayServer | undefined;
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  // The skills are part of it: the `skill` tool's description lists them (prompts and resources follow the same list).
  const offered = () => currentRoute() === 'provider';
  const signature = () => (offered() ? buildCatalog(host.tools(), filter, activeSkills(host)).signature : OFF);
  const published = new DefinitionVersion(signature());
  const check = () => {
    const step = published.update(signature(), relay?.liveCount ?? 0);
    if (step.fireChanged) changed.fire();
    // The plugin's servers are relays too; the provider's version stays OFF on that route, so they are told here.
    if (step.refreshLive || currentRoute() === 'plugin') relay?.refresh();
  };
  const listen = () =>
    // The relay server (src/mcp/relayServer.ts with the MCP handler, built apart as dist/relay-server.js) is loaded when
    // VS Code first starts our server, outside dist/extension.js's size limit.
    (server ??= lazyBundle<typeof Relay>(context, 'relay-server')().RelayServer.listen({
      host,
      serverVersion: String((context.extension.packageJSON as { version?: unknown }).version),
      origin: 'agent',
      exclude: filter.exclude,
      progress,
      cwd,
      toolTimeoutMs: () => settings().toolTimeoutSeconds * 1000,
      log,
    }).then((s) => {
      relay = s;
      // The last relay gone (VS Code stopped the server) or a start that never connected: the version catches up.
      context.subscriptions.push(s.onDidChangeConnections((n) => {
        log?.(`mcp: relays running or starting: ${n}`);
        if (n === 0) check();
      }));
      return s;
    }));

  /**
   * On the plugin's route, this window's relay is published (with its standing token) for the plugin's servers to
   * find (`zut-host mcp --window`, src/mcp/windowRelay.ts): they are served by this host, as the provider's are.
   */
  const plugin = new PluginRelay(listen, log);
  // After activate() returns, like the launcher: loading the relay bundle is not activation's work.
  setImmediate(() => plugin.follow(currentRoute()));

  const provider: vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition> = {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: () => {
      if (!offered()) return [];
      const script = context.asAbsolutePath('dist/mcp-relay.js');
      // ELECTRON_RUN_AS_NODE: in desktop VS Code `process.execPath` is Electron; in code-server it is Node already.
      const def = new vscode.McpStdioServerDefinition(MCP_SERVER_LABEL, process.execPath, [script], { ELECTRON_RUN_AS_NODE: '1' }, published.current);
      if (cwd) def.cwd = vscode.Uri.file(cwd);
      return [def];
    },
    resolveMcpServerDefinition: async (def) => {
      const s = await listen();
      log?.(`mcp: VS Code starts the agent-mode server (relay socket ${s.address})`);
      def.env = { ...def.env, [RELAY_ENV.socket]: s.address, [RELAY_ENV.token]: s.issueToken() };
      return def;
    },
  };
  context.subscriptions.push(
    changed,
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider),
    // Once per burst of changes (CHANGE_SETTLE_MS), not on each of a start's many.
    onSettled(host.onDidChangeExtensions, CHANGE_SETTLE_MS, check),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('zut.agentTools')) check();
    }),
    // The plugin took over or gave back: the list itself changes (a server, or none), live relay or not.
    onRoute((route) => {
      check();
      changed.fire();
      plugin.follow(route);
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => plugin.follow(currentRoute())),
    plugin,
    { dispose: () => void server?.then((s) => s.dispose()) },
  );
}
