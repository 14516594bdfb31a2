/**
 * Zod schemas and TypeScript types for every frame of zut's extension protocol v2, both directions.
 * Names follow `extproto.go`: `…FromExt` frames are sent by an extension, `…FromHost` frames by the host.
 * Unknown fields are tolerated (stripped); an unknown `type` is reported, not fatal.
 */
import * as z from 'zod';
import { lazySchema } from './lazySchema';

/** The protocol major both sides must agree on. */
export const PROTOCOL_VERSION = 2;

/** Any JSON value (used for opaque `details`, `state`, `schema`, `args`). */
export const JsonValue: z.ZodType<unknown> = /* @__PURE__ */ lazySchema(() => z.unknown());

// ---------------------------------------------------------------- shared value types

export const SessionContext = /* @__PURE__ */ lazySchema(() => z.object({
  id: z.string(),
  parent_id: z.string().optional(),
  path: z.string().optional(),
  cwd: z.string().optional(),
  fork_point: z.number().int().optional(),
}));
export type SessionContext = z.infer<typeof SessionContext>;

export const ContentBlock = /* @__PURE__ */ lazySchema(() => z.object({
  type: z.string(),
  text: z.string().optional(),
  mime_type: z.string().optional(),
  data: z.string().optional(),
}));
export type ContentBlock = z.infer<typeof ContentBlock>;

export const PanelSpec = /* @__PURE__ */ lazySchema(() => z.object({
  id: z.string().min(1),
  title: z.string().optional(),
  lines: z.array(z.string()).nullish().transform((v) => v ?? undefined),
  footer: z.string().optional(),
}));
export type PanelSpec = z.infer<typeof PanelSpec>;

// ---------------------------------------------------------------- extension → host

export const HelloFromExt = /* @__PURE__ */ lazySchema(() => z.object({
  type: z.literal('hello'),
  protocol_version: z.number().int(),
  name: z.string(),
  version: z.string().optional(),
  capabilities: z.array(z.string()).nullish().transform((v) => v ?? []),
}));
export const RegisterCommandFromExt = /* @__PURE__ */ lazySchema(() => z.object({
  type: z.literal('register_command'),
  name: z.string().min(1),
  description: z.string().optional(),
}));
/**
 * `register_tool.annotations` (ours, additive; zut ignores unknown fields): hints passed through to MCP clients
 * (VS Code's agent mode, `zut-host mcp`). A malformed value is dropped, never fatal to the registration.
 */
export const ToolAnnotations = /* @__PURE__ */ lazySchema(() => z.object({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
}));
export type ToolAnnotations = z.infer<typeof ToolAnnotations>;

export const RegisterToolFromExt = /* @__PURE__ */ lazySchema(() => z.object({
  type: z.literal('register_tool'),
  name: z.string().min(1),
  description: z.string().optional(),
  schema: JsonValue.optional(),
  deferred: z.boolean().optional(),
  interactive: z.boolean().optional(),
  annotations: ToolAnnotations.optional().catch(undefined),
}));
export const ReadyFromExt = /* @__PURE__ */ lazySchema(() => z.object({ type: z.literal('ready') }));
export const SubscribeFromExt = /* @__PURE__ */ lazySchema(() => z.object({
  type: z.literal('subscribe'),
  events: z.array(z.string()).nullish().transform((v) => v ?? []),
  intercept: z.array(z.string()).nullish().transform((v) => v ?? []),
}));
export const EventInterceptResponseFromExt = /* @__PURE__ */ lazySchema(() => z.object({
  type: z.literal('event_intercept_response'),
  id: z.string(),
  block: z.boolean().optional(),
  reason: z.string().optional(),
  modified_args: JsonValue.optional(),
  replace_text: z.string().optional(),
  context: z.string().optional(),
}));
export const ToolResultFromExt = /* @__PURE__ */ lazySchema(() => z.object({
  type: z.literal('tool_result'),
  id: z.string(),
  content: z.array(ContentBlock).nullish().transform((v) => v ?? []),
  is_error: z.boolean().optional(),
  activate_tools: z.array(z.string()).nullish().transform((v) => v ?? undefined),
  details: JsonValue.optional(),
}));
export const CommandResponseFromExt = /* @__PURE__ */ lazySchema(() => z.object({
  type: z.literal('command_response'),
  id: z.string(),
  action: z.string(),
  prompt: z.string().optional(),
  insert: z.string().optional(),
  display: z.string().optional(),
  open_panel: PanelSpec.nullish().transform((v) => v ?? undefined),
  error: z.string().optional(),
}));
export const OpenPanelFromExt = /* @__PURE__ */ lazySchema(() => z.object({ type: z.literal('open_panel'), panel: PanelSpec }));
export const PanelRenderFromExt = /* @__PURE__ */ lazySchema(() => z.object({
  type: z.literal('panel_render'),
  panel_id: z.string(),
  title: z.string().optional(),
  lines: z.array(z.string()).nullish().transform((v) => v ?? undefined),
  footer: z.string().optional(),
}));
export const PanelCloseFromExt = /* @__PURE__ */ lazySchema(() => z.object({ type: z.literal('panel_close'), panel_id: z.string() }));
export const StatusFromExt = /* @__PURE__ */ lazySchema(() => z.object({
  type: z.literal('status'),
  key: z.string(),
  level: z.string().optional(),
  text: z.string().optional(),
}));
export const WidgetFromExt = /* @__PURE__ */ lazySchema(() => z.object({
  type: z.literal('widget'),
  id: z.string(),
  position: z.string().optional(),
  title: z.string().optional(),
  lines: z.array(z.string()).nullish().transform((v) => v ?? undefined),
}));
const ClearWidgetFromExt = /* @__PURE__ */ lazySchema(() => z.object({ type: z.literal('widget_clear'), id: z.string() }));
export const AlertFromExt = /* @__PURE__ */ lazySchema(() => z.object({ type: z.literal('alert'), kind: z.string(), reason: z.string().optional() }));
export const NotifyFromExt = /* @__PURE__ */ lazySchema(() => z.object({
  type: z.literal('notify'),
  level: z.string().optional(),
  message: z.string(),
}));
export const ClearNotesFromExt = /* @__PURE__ */ lazySchema(() => z.object({ type: z.literal('clear_notes') }));
export const SubmitSlashFromExt = /* @__PURE__ */ lazySchema(() => z.object({ type: z.literal('submit_slash'), text: z.string() }));
export const SubmitFromExt = /* @__PURE__ */ lazySchema(() => z.object({ type: z.literal('submit'), text: z.string() }));
export const ShutdownAckFromExt = /* @__PURE__ */ lazySchema(() => z.object({ type: z.literal('shutdown_ack') }));

/** Every frame an extension may send, keyed by `type`. */
export const extFrameSchemas = {
  hello: HelloFromExt,
  register_command: RegisterCommandFromExt,
  register_tool: RegisterToolFromExt,
  ready: ReadyFromExt,
  subscribe: SubscribeFromExt,
  event_intercept_response: EventInterceptResponseFromExt,
  tool_result: ToolResultFromExt,
  command_response: CommandResponseFromExt,
  open_panel: OpenPanelFromExt,
  panel_render: PanelRenderFromExt,
  panel_close: PanelCloseFromExt,
  status: StatusFromExt,
  widget: WidgetFromExt,
  widget_clear: ClearWidgetFromExt,
  alert: AlertFromExt,
  notify: NotifyFromExt,
  clear_notes: ClearNotesFromExt,
  submit_slash: SubmitSlashFromExt,
  submit: SubmitFromExt,
  shutdown_ack: ShutdownAckFromExt,
} as const;

export type ExtFrameType = keyof typeof extFrameSchemas;
/** A validated frame from an extension. */
export type ExtFrame = { [K in ExtFrameType]: z.infer<(typeof extFrameSchemas)[K]> }[ExtFrameType];
/** The frame of one `type`. */
export type ExtFrameOf<K extends ExtFrameType> = z.infer<(typeof extFrameSchemas)[K]>;

export type HelloFromExt = ExtFrameOf<'hello'>;
export type RegisterCommandFromExt = ExtFrameOf<'register_command'>;
export type RegisterToolFromExt = ExtFrameOf<'register_tool'>;
export type SubscribeFromExt = ExtFrameOf<'subscribe'>;
export type EventInterceptResponseFromExt = ExtFrameOf<'event_intercept_response'>;
export type ToolResultFromExt = ExtFrameOf<'tool_result'>;
export type CommandResponseFromExt = ExtFrameOf<'command_response'>;
export type OpenPanelFromExt = ExtFrameOf<'open_panel'>;
export type PanelRenderFromExt = ExtFrameOf<'panel_render'>;
export type StatusFromExt = ExtFrameOf<'status'>;
export type WidgetFromExt = ExtFrameOf<'widget'>;
export type NotifyFromExt = ExtFrameOf<'notify'>;
export type AlertFromExt = ExtFrameOf<'alert'>;

// ---------------------------------------------------------------- host → extension

export const HelloAckFromHost = /* @__PURE__ */ lazySchema(() => z.object({
  type: z.literal('hello_ack'),
  protocol_version: z.number().int(),
  zut_version: z.string(),
  provider: z.string(),
  model: z.string(),
  cwd: z.string(),
  extension_dir: z.string().optional(),
  data_dir: z.string().optional(),
  session: SessionContext.optional(),
}));
export const CommandInvokedFromHost = /* @__PURE__ */ lazySchema(() => z.object({
  type: z.literal('command_invoked'),
  id: z.string(),
  name: z.string(),
  args: z.string().optional(),
}));
export const ToolCancelFromHost = /* @__PURE__ */ lazySchema(() => z.object({ type: z.literal('tool_cancel'), id: z.string() }));
export const ToolCallFromHost = /* @__PURE__ */ lazySchema(() => z.object({
  type: z.literal('tool_call'),
  id: z.string(),
  name: z.string(),
  args: JsonValue,
}));
export const EventFromHost = /* @__PURE__ */ lazySchema(() => z.object({
  type: z.literal('event'),
  event: z.string(),
  step: z.number().int().optional(),
  stop: z.string().optional(),
  error: z.string().optional(),
  tool_id: z.string().optional(),
  tool_name: z.string().optional(),
  tool_args: JsonValue.optional(),
  tool_preview: z.string().optional(),
  /** Ours (additive): the real tool of the editor or another agent behind the name guards see (`run_in_terminal` seen as `bash`). */
  editor_tool: z.string().optional(),
  /** Ours (additive): what that tool does — `exec`, `write`, `read`, `network` (absent: not known). */
  effect: z.string().optional(),
  text: z.string().optional(),
  session: SessionContext.optional(),
  state: JsonValue.optional(),
}));
export const EventInterceptFromHost = /* @__PURE__ */ lazySchema(() => z.object({
  type: z.literal('event_intercept'),
  id: z.string(),
  event: z.string(),
  tool_id: z.string().optional(),
  tool_name: z.string().optional(),
  tool_args: JsonValue.optional(),
  /** Ours (additive): the real tool of the editor or another agent behind the name guards see (`run_in_terminal` seen as `bash`). */
  editor_tool: z.string().optional(),
  /** Ours (additive): what that tool does — `exec`, `write`, `read`, `network` (absent: not known). */
  effect: z.string().optional(),
  step: z.number().int().optional(),
  text: z.string().optional(),
}));
export const PanelKeyFromHost = /* @__PURE__ */ lazySchema(() => z.object({
  type: z.literal('panel_key'),
  panel_id: z.string(),
  key: z.string(),
  text: z.string().optional(),
}));
export const PanelResizeFromHost = /* @__PURE__ */ lazySchema(() => z.object({
  type: z.literal('panel_resize'),
  panel_id: z.string(),
  width: z.number().int(),
  height: z.number().int(),
}));
export const PanelCloseFromHost = /* @__PURE__ */ lazySchema(() => z.object({ type: z.literal('panel_close'), panel_id: z.string() }));
export const ShutdownFromHost = /* @__PURE__ */ lazySchema(() => z.object({ type: z.literal('shutdown') }));

/** Every frame the host may send, keyed by `type`. */
export const hostFrameSchemas = {
  hello_ack: HelloAckFromHost,
  command_invoked: CommandInvokedFromHost,
  tool_cancel: ToolCancelFromHost,
  tool_call: ToolCallFromHost,
  event: EventFromHost,
  event_intercept: EventInterceptFromHost,
  panel_key: PanelKeyFromHost,
  panel_resize: PanelResizeFromHost,
  panel_close: PanelCloseFromHost,
  shutdown: ShutdownFromHost,
} as const;

export type HostFrameType = keyof typeof hostFrameSchemas;
/** A frame the host sends. */
export type HostFrame = { [K in HostFrameType]: z.infer<(typeof hostFrameSchemas)[K]> }[HostFrameType];
export type HostFrameOf<K extends HostFrameType> = z.infer<(typeof hostFrameSchemas)[K]>;
export type HelloAckFromHost = HostFrameOf<'hello_ack'>;
export type EventFromHost = HostFrameOf<'event'>;
export type EventInterceptFromHost = HostFrameOf<'event_intercept'>;

/** Panel key names of the spec (`rune` carries `text`). */
export const PANEL_KEYS = [
  'up', 'down', 'left', 'right', 'enter', 'esc', 'tab', 'pageup', 'pagedown', 'home', 'end', 'backspace', 'delete', 'rune',
] as const;
export type PanelKeyName = (typeof PANEL_KEYS)[number];

/** Events an extension may intercept. */
export const INTERCEPTABLE_EVENTS = ['tool_call', 'turn_start', 'assistant_message'] as const;
export type InterceptableEvent = (typeof INTERCEPTABLE_EVENTS)[number];
