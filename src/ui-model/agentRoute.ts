/**
 * Which way zut's tools and skills reach VS Code's agent: our MCP server definition provider
 * (`contributes.mcpServerDefinitionProviders`, served by this window's host through the relay) or zut's agent plugin
 * (`contributes.chatPlugins` → `agent-plugin/`, whose MCP server VS Code or its Agent Host starts: `zut-host mcp`
 * through the stable launcher) — never both, so agent mode gets each zut tool once. VS Code's MCP migration matrix
 * (microsoft/vscode#332782) marks extension-contributed MCP servers green on the Local harness only and partial on
 * the Copilot, Claude and Codex harnesses, while a plugin's MCP servers are green on every harness; the provider's
 * server runs in this window's host (project extensions with the user's consent, one copy of each extension), the
 * plugin's in a process of its own (the user's global extensions). So `auto` takes the plugin when new sessions run
 * on an Agent Host harness (or one is enabled), the provider otherwise. On Windows the plugin is never taken: its
 * server starts through `sh` (agent-plugin/bin/zut-mcp), and the launcher's pointer it reads is not written there
 * (agentSetup/launcherPointer.ts), so `auto` and `plugin` take the provider (`pluginBlockedBy` says why). VS Code-free:
 * the adapter reads the settings.
 */
import * as z from 'zod';
import { lazySchema } from '../protocol/lazySchema';

/** `zut.agentTools.via`. */
export const AGENT_TOOLS_VIA = ['auto', 'provider', 'plugin'] as const;
export type AgentToolsVia = (typeof AGENT_TOOLS_VIA)[number];
export const agentToolsViaSchema = /* @__PURE__ */ lazySchema(() => z.enum(AGENT_TOOLS_VIA));

/** VS Code's own settings that decide which harness a session runs on (1.139), and whether plugins load. */
export interface HarnessSettings {
  /** `chat.defaultToCopilotHarness`: new editor and panel sessions default to the Copilot harness. */
  defaultToCopilotHarness: boolean;
  /** `chat.editor.preferCopilotHarness`: the Copilot harness wherever the Local one would be chosen. */
  preferCopilotHarness: boolean;
  /** `chat.editor.localAgent.enabled`: the Local harness is offered in the picker (default true). */
  localAgentEnabled: boolean;
  /** `chat.agentHost.claudeAgent.enabled`. */
  claudeAgentEnabled: boolean;
  /** `chat.agentHost.codexAgent.enabled`. */
  codexAgentEnabled: boolean;
  /** `chat.plugins.enabled` (default true): VS Code loads agent plugins at all. */
  pluginsEnabled: boolean;
}

/**
 * The VS Code setting keys behind `HarnessSettings`, and the value taken when VS Code has no such setting (a version
 * before it): VS Code's own default wins wherever the setting exists — in 1.139.1 `chat.agentHost.claudeAgent.enabled`
 * defaults to true, and Codex's to true on builds other than stable, so `auto` takes the plugin there.
 */
export const HARNESS_SETTING_KEYS: { [K in keyof HarnessSettings]: { key: string; default: boolean } } = {
  defaultToCopilotHarness: { key: 'chat.defaultToCopilotHarness', default: false },
  preferCopilotHarness: { key: 'chat.editor.preferCopilotHarness', default: false },
  localAgentEnabled: { key: 'chat.editor.localAgent.enabled', default: true },
  claudeAgentEnabled: { key: 'chat.agentHost.claudeAgent.enabled', default: false },
  codexAgentEnabled: { key: 'chat.agentHost.codexAgent.enabled', default: false },
  pluginsEnabled: { key: 'chat.plugins.enabled', default: true },
};

/** Reads `HarnessSettings` through a getter of VS Code settings (a non-boolean value counts as its default). */
export function readHarnessSettings(get: (key: string) => unknown): HarnessSettings {
  const out = {} as Record<keyof HarnessSettings, boolean>;
  for (const [name, { key, default: d }] of Object.entries(HARNESS_SETTING_KEYS) as [keyof HarnessSettings, { key: string; default: boolean }][]) {
    const v = get(key);
    out[name] = typeof v === 'boolean' ? v : d;
  }
  return out;
}

/** Whether any Agent Host harness is where sessions run or can be started. */
export function agentHostInUse(h: HarnessSettings): boolean {
  return h.defaultToCopilotHarness || h.preferCopilotHarness || !h.localAgentEnabled || h.claudeAgentEnabled || h.codexAgentEnabled;
}

export type AgentToolsRoute = 'provider' | 'plugin' | 'off';

/** Why zut's agent plugin cannot serve on `platform` (undefined: it can). */
export function pluginBlockedBy(platform: NodeJS.Platform): string | undefined {
  return platform === 'win32' ? "zut's agent plugin starts its server with sh, which Windows does not have" : undefined;
}

/**
 * The route now: `off` when the user turned agent tools off; the plugin only where VS Code loads plugins and the
 * plugin's server can start (`platform`: the extension host's, where VS Code starts it); `auto` as the header says.
 * `chatPluginsSupported`: this VS Code has `contributes.chatPlugins` (1.139 has).
 */
export function agentToolsRoute(enabled: boolean, via: AgentToolsVia, h: HarnessSettings, chatPluginsSupported: boolean, platform: NodeJS.Platform): AgentToolsRoute {
  if (!enabled) return 'off';
  const pluginPossible = chatPluginsSupported && h.pluginsEnabled && pluginBlockedBy(platform) === undefined;
  if (via === 'provider') return 'provider';
  if (via === 'plugin') return pluginPossible ? 'plugin' : 'provider';
  return pluginPossible && agentHostInUse(h) ? 'plugin' : 'provider';
}
