/**
 * The route zut's tools take to VS Code's agent (src/ui-model/agentRoute.ts) in this window: computed from
 * `zut.agentTools.*` and VS Code's harness settings, kept in the `zut.agentPlugin` context key that gates zut's
 * agent plugin (`contributes.chatPlugins[].when`), and announced on change so the MCP server provider
 * (agentModeMcpServer.ts) offers its server only while the route is `provider`: each zut tool once.
 */
import * as vscode from 'vscode';
import { agentToolsRoute, HARNESS_SETTING_KEYS, pluginBlockedBy, readHarnessSettings, type AgentToolsRoute, type HarnessSettings } from '../ui-model/agentRoute';
import { zutSettings } from './settingsRead';

/** The context key `contributes.chatPlugins[0].when` names in package.json. */
export const AGENT_PLUGIN_CONTEXT_KEY = 'zut.agentPlugin';
/** The first VS Code whose `contributes.chatPlugins` we read in its source and ran (code-server 4.139.1). */
export const CHAT_PLUGINS_SINCE: readonly [number, number] = [1, 139];

/** Whether this VS Code reads `contributes.chatPlugins`. */
export function chatPluginsSupported(version = vscode.version): boolean {
  const [major = 0, minor = 0] = version.split('.').map((n) => Number.parseInt(n, 10));
  return major > CHAT_PLUGINS_SINCE[0] || (major === CHAT_PLUGINS_SINCE[0] && minor >= CHAT_PLUGINS_SINCE[1]);
}

/** VS Code's harness settings now. */
export function harnessSettings(): HarnessSettings {
  const config = vscode.workspace.getConfiguration();
  return readHarnessSettings((key) => config.get(key));
}

/** The route now. */
export function currentRoute(): AgentToolsRoute {
  const s = zutSettings().settings;
  return agentToolsRoute(s.agentToolsEnabled, s.agentToolsVia, harnessSettings(), chatPluginsSupported(), process.platform);
}

const describeRoute = (r: AgentToolsRoute): string =>
  r === 'plugin'
    ? "zut's agent plugin"
    : r === 'provider'
      ? `the MCP server provider${pluginBlockedBy(process.platform) && zutSettings().settings.agentToolsVia !== 'provider' ? ` (${pluginBlockedBy(process.platform)})` : ''}`
      : 'nothing (zut.agentTools.enabled is off)';

/** Keeps the context key in step; `onDidChange` fires with the new route when it changes. */
export function registerAgentRoute(context: vscode.ExtensionContext, log?: (line: string) => void): vscode.Event<AgentToolsRoute> {
  const changed = new vscode.EventEmitter<AgentToolsRoute>();
  let route = currentRoute();
  const publish = () => void Promise.resolve(vscode.commands.executeCommand('setContext', AGENT_PLUGIN_CONTEXT_KEY, route === 'plugin')).catch(() => undefined);
  const keys = ['zut.agentTools', ...Object.values(HARNESS_SETTING_KEYS).map((k) => k.key)];
  context.subscriptions.push(
    changed,
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!keys.some((k) => e.affectsConfiguration(k))) return;
      const next = currentRoute();
      if (next === route) return;
      route = next;
      log?.(`agent tools: now through ${describeRoute(route)}`);
      publish();
      changed.fire(route);
    }),
  );
  log?.(`agent tools: through ${describeRoute(route)} (VS Code: ${JSON.stringify(harnessSettings())})`);
  publish();
  return changed.event;
}
