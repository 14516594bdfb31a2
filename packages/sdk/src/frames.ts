// GENERATED from src/protocol/frames.ts by src/protocol/typesGen.ts (scripts/sdk.mjs). Do not edit.
// Frames an extension sends are the host schemas' input types; frames the host sends, their output types.

/** The protocol major both sides must agree on. */
export const PROTOCOL_VERSION = 2;

/** Panel key names (`rune` carries `text`). */
export type PanelKeyName = 'up' | 'down' | 'left' | 'right' | 'enter' | 'esc' | 'tab' | 'pageup' | 'pagedown' | 'home' | 'end' | 'backspace' | 'delete' | 'rune';

/** Events an extension may intercept. */
export type InterceptableEvent = 'tool_call' | 'turn_start' | 'assistant_message';

// ---------------------------------------------------------------- extension → host

/** The `hello` frame an extension sends. */
export interface HelloFromExt {
  type: "hello";
  protocol_version: number;
  name: string;
  version?: string;
  capabilities?: string[] | null;
}

/** The `register_command` frame an extension sends. */
export interface RegisterCommandFromExt {
  type: "register_command";
  name: string;
  description?: string;
}

/** The `register_tool` frame an extension sends. */
export interface RegisterToolFromExt {
  type: "register_tool";
  name: string;
  description?: string;
  schema?: unknown;
  deferred?: boolean;
  interactive?: boolean;
  annotations?: {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
}

/** The `ready` frame an extension sends. */
export interface ReadyFromExt {
  type: "ready";
}

/** The `subscribe` frame an extension sends. */
export interface SubscribeFromExt {
  type: "subscribe";
  events?: string[] | null;
  intercept?: string[] | null;
}

/** The `event_intercept_response` frame an extension sends. */
export interface EventInterceptResponseFromExt {
  type: "event_intercept_response";
  id: string;
  block?: boolean;
  reason?: string;
  modified_args?: unknown;
  replace_text?: string;
  context?: string;
}

/** The `tool_result` frame an extension sends. */
export interface ToolResultFromExt {
  type: "tool_result";
  id: string;
  content?: {
    type: string;
    text?: string;
    mime_type?: string;
    data?: string;
  }[] | null;
  is_error?: boolean;
  activate_tools?: string[] | null;
  details?: unknown;
}

/** The `command_response` frame an extension sends. */
export interface CommandResponseFromExt {
  type: "command_response";
  id: string;
  action: string;
  prompt?: string;
  insert?: string;
  display?: string;
  open_panel?: {
    id: string;
    title?: string;
    lines?: string[] | null;
    footer?: string;
  } | null;
  error?: string;
}

/** The `open_panel` frame an extension sends. */
export interface OpenPanelFromExt {
  type: "open_panel";
  panel: {
    id: string;
    title?: string;
    lines?: string[] | null;
    footer?: string;
  };
}

/** The `panel_render` frame an extension sends. */
export interface PanelRenderFromExt {
  type: "panel_render";
  panel_id: string;
  title?: string;
  lines?: string[] | null;
  footer?: string;
}

/** The `panel_close` frame an extension sends. */
export interface PanelCloseFromExt {
  type: "panel_close";
  panel_id: string;
}

/** The `status` frame an extension sends. */
export interface StatusFromExt {
  type: "status";
  key: string;
  level?: string;
  text?: string;
}

/** The `widget` frame an extension sends. */
export interface WidgetFromExt {
  type: "widget";
  id: string;
  position?: string;
  title?: string;
  lines?: string[] | null;
}

/** The `widget_clear` frame an extension sends. */
export interface WidgetClearFromExt {
  type: "widget_clear";
  id: string;
}

/** The `alert` frame an extension sends. */
export interface AlertFromExt {
  type: "alert";
  kind: string;
  reason?: string;
}

/** The `notify` frame an extension sends. */
export interface NotifyFromExt {
  type: "notify";
  level?: string;
  message: string;
}

/** The `clear_notes` frame an extension sends. */
export interface ClearNotesFromExt {
  type: "clear_notes";
}

/** The `submit_slash` frame an extension sends. */
export interface SubmitSlashFromExt {
  type: "submit_slash";
  text: string;
}

/** The `submit` frame an extension sends. */
export interface SubmitFromExt {
  type: "submit";
  text: string;
}

/** The `shutdown_ack` frame an extension sends. */
export interface ShutdownAckFromExt {
  type: "shutdown_ack";
}

/** Every frame an extension may send. */
export type ExtFrame =
  | HelloFromExt
  | RegisterCommandFromExt
  | RegisterToolFromExt
  | ReadyFromExt
  | SubscribeFromExt
  | EventInterceptResponseFromExt
  | ToolResultFromExt
  | CommandResponseFromExt
  | OpenPanelFromExt
  | PanelRenderFromExt
  | PanelCloseFromExt
  | StatusFromExt
  | WidgetFromExt
  | WidgetClearFromExt
  | AlertFromExt
  | NotifyFromExt
  | ClearNotesFromExt
  | SubmitSlashFromExt
  | SubmitFromExt
  | ShutdownAckFromExt;

// ---------------------------------------------------------------- host → extension

/** The `hello_ack` frame the host sends. */
export interface HelloAckFromHost {
  type: "hello_ack";
  protocol_version: number;
  zut_version: string;
  provider: string;
  model: string;
  cwd: string;
  extension_dir?: string;
  data_dir?: string;
  session?: {
    id: string;
    parent_id?: string;
    path?: string;
    cwd?: string;
    fork_point?: number;
  };
}

/** The `command_invoked` frame the host sends. */
export interface CommandInvokedFromHost {
  type: "command_invoked";
  id: string;
  name: string;
  args?: string;
}

/** The `tool_cancel` frame the host sends. */
export interface ToolCancelFromHost {
  type: "tool_cancel";
  id: string;
}

/** The `tool_call` frame the host sends. */
export interface ToolCallFromHost {
  type: "tool_call";
  id: string;
  name: string;
  args: unknown;
}

/** The `event` frame the host sends. */
export interface EventFromHost {
  type: "event";
  event: string;
  step?: number;
  stop?: string;
  error?: string;
  tool_id?: string;
  tool_name?: string;
  tool_args?: unknown;
  tool_preview?: string;
  editor_tool?: string;
  effect?: string;
  text?: string;
  session?: {
    id: string;
    parent_id?: string;
    path?: string;
    cwd?: string;
    fork_point?: number;
  };
  state?: unknown;
}

/** The `event_intercept` frame the host sends. */
export interface EventInterceptFromHost {
  type: "event_intercept";
  id: string;
  event: string;
  tool_id?: string;
  tool_name?: string;
  tool_args?: unknown;
  editor_tool?: string;
  effect?: string;
  step?: number;
  text?: string;
}

/** The `panel_key` frame the host sends. */
export interface PanelKeyFromHost {
  type: "panel_key";
  panel_id: string;
  key: string;
  text?: string;
}

/** The `panel_resize` frame the host sends. */
export interface PanelResizeFromHost {
  type: "panel_resize";
  panel_id: string;
  width: number;
  height: number;
}

/** The `panel_close` frame the host sends. */
export interface PanelCloseFromHost {
  type: "panel_close";
  panel_id: string;
}

/** The `shutdown` frame the host sends. */
export interface ShutdownFromHost {
  type: "shutdown";
}

/** Every frame the host may send. */
export type HostFrame =
  | HelloAckFromHost
  | CommandInvokedFromHost
  | ToolCancelFromHost
  | ToolCallFromHost
  | EventFromHost
  | EventInterceptFromHost
  | PanelKeyFromHost
  | PanelResizeFromHost
  | PanelCloseFromHost
  | ShutdownFromHost;
