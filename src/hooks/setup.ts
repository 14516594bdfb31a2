/**
 * The entry of dist/agent-setup.js: what the VS Code extension's "Copy MCP Client Configuration…" and "Guard Agent
 * Tools…" commands and its launcher upkeep need, built apart and loaded at run time (src/vscode/agentSetup.ts) so it
 * stays out of dist/extension.js's size limit. VS Code-free.
 */
export { ensureLauncher, launcherPath } from './launcher';
export { allowProjectNote, mcpSnippet, MCP_CLIENTS, type McpClient, type McpSnippet } from './mcpConfig';
export { applyInstall, applyUninstall, describePlan, installedCount, planInstall, type HookScope, type Installation, type InstallPlan } from './install';
