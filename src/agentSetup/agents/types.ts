/**
 * One agent's set-up as a row: where its hooks and its MCP configuration go, writing and removing ours, and whether
 * the agent will actually run what is installed (Codex's trusted hashes, Gemini's trusted folders, …). The CLI
 * (`zut-host hook install|uninstall --agent A`, `zut-host mcp install|uninstall --agent A`, `zut-host doctor`) and
 * the window's "Guard Agent Tools…" and "Copy MCP Client Configuration…" read the rows of index.ts; VS Code's agent,
 * Copilot CLI and Claude Code keep their own older path (../hookInstall.ts, ../claudeMcp.ts). Every file is written
 * through the careful writer (host/disk/userFile.ts): other entries and bytes kept, owner and mode kept, links
 * written through. VS Code-free.
 */
import type { HookAgent } from '../../hooks/names';
import type { HookScope, Installation } from '../hookInstall';

/** What a set-up step did, for the person who asked: the file and what changed in it. */
export interface SetupStep {
  file: string;
  /** One line per change ("hooks.PreToolUse: {…}", "trusted_hash for …"), as the CLI prints them. */
  changes: string[];
}

/** Whether what is installed will run: `runs` false names why (an untrusted hook, an untrusted folder) and the fix. */
export interface SetupCheck {
  agent: HookAgent;
  /** The agent seems to be on this machine (its binary on PATH or its configuration directory). */
  found: boolean;
  /** zut's hooks are in its files (the scope's, or either when the check is for both). */
  hooksInstalled: boolean;
  /** zut's MCP server is in its configuration. */
  mcpInstalled: boolean;
  /** The agent will run the hooks installed (undefined when none are). */
  hooksRun?: boolean;
  /** Why not, and what to run or change (shown by doctor and the window). */
  problems: string[];
}

export interface AgentSetupRow {
  agent: HookAgent;
  /** The agent's name for people ("Codex CLI"). */
  label: string;
  /** The scopes its hooks can be installed in. */
  scopes: readonly HookScope[];
  /** Whether the agent seems to be on this machine (for ordering picks; never a condition of installing). */
  found(inst: Installation): boolean;
  /** Writes zut's hooks (and whatever makes the agent run them, e.g. Codex's trust); returns what it changed. */
  installHooks(inst: Installation, scope: HookScope): Promise<SetupStep[]>;
  /** Takes out exactly ours; returns what it changed (empty: nothing of ours was there). */
  uninstallHooks(inst: Installation, scope: HookScope): Promise<SetupStep[]>;
  /** Writes zut's MCP server (`zut`, running `zut-host mcp`) into the agent's MCP configuration. */
  installMcp(inst: Installation, scope: HookScope): Promise<SetupStep[]>;
  uninstallMcp(inst: Installation, scope: HookScope): Promise<SetupStep[]>;
  /** What is installed in `scope` and whether it will run. */
  check(inst: Installation, scope: HookScope): Promise<SetupCheck>;
}
