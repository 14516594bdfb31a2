/**
 * What answering an agent's hook needs of a zut host (the Manager: a window's, the warm host's, or one of the hook's
 * own): the guard door and the events, the turn and system-prompt chains, the session, when the extensions still
 * starting are up (every event waits for them, within its budget), and what it serves (its tools and skills, to know
 * zut's own MCP tools; its extensions' subscriptions, to know whether a call is needed on disk). VS Code-free.
 */
import type { ExtensionHost } from '../host/api';

export type HookAnswerHost = Pick<
  ExtensionHost,
  'allTools' | 'whenSettled' | 'emit' | 'emitSessionEvent' | 'guardTool' | 'toolRan' | 'toolPermission' | 'interceptTurnStart' | 'interceptBeforeAgentStart' | 'setSession' | 'extensions'
>;
