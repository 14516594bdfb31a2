/**
 * Every limit of the host in one place: frame and queue sizes, timeouts, per-extension caps. Each constant says
 * where its number comes from: **spec** = zut's extension spec, `zut-extensions.md` (zut's own behaviour, which we match
 * exactly), **ours** = chosen by this host where the spec is silent (with the reason). Imports nothing, so the
 * protocol layer, the host, the VS Code adapters and the CLI can all read it.
 */

// ------------------------------------------------------------------ transport (spec)

/** The largest frame (bytes, without its newline) either side may send. Spec (extproto: 4 MiB line buffer). */
export const MAX_FRAME_BYTES = 4 * 1024 * 1024;
/** Host → extension queue: at most this many frames waiting. Spec ("bounded to 256 frames and 16 MiB"). */
export const QUEUE_MAX_FRAMES = 256;
/** Host → extension queue: at most this many bytes waiting. Spec. */
export const QUEUE_MAX_BYTES = 16 * 1024 * 1024;
/** A write that does not drain within this is a write timeout (disconnect). Spec ("five-second timeout"). */
export const WRITE_TIMEOUT_MS = 5_000;
/**
 * Frames sent in one tick to one extension leave in one write, up to this many bytes (then at once). Ours: one
 * syscall and one wake-up of the child per burst instead of per frame; the size of a Linux pipe buffer.
 */
export const WRITE_BATCH_BYTES = 64 * 1024;
/**
 * …and a staged frame waits at most this long for company: in a long synchronous burst (a thousand calls issued
 * at once) the batch leaves once its first frame is this old, so the child starts working while the rest are
 * still being issued. Ours: measured on the concurrency bench row (p50 ≈ 1.26× → ≈ 1.11× the raw clients).
 */
export const WRITE_BATCH_MAX_WAIT_MS = 0.5;
/**
 * A file whose mtime is within this of an extension's spawn may have changed after it (the kernel stamps files
 * from a coarse clock, one timer tick behind the wall clock): a watcher event for it restarts the extension. Ours.
 */
export const FILE_TIME_SLACK_MS = 50;
/** A cancelled frame whose write has begun may take this long before the transport is torn down. Spec (250 ms). */
export const TORN_WRITE_GRACE_MS = 250;
/** A stderr line longer than this is split (the log keeps every byte). Ours: bounds memory per stderr line. */
export const STDERR_LINE_MAX_CHARS = 64 * 1024;

// ------------------------------------------------------------------ files an extension directory supplies (ours, issue 20)

/**
 * The largest `extension.json` read (zut and zot); a larger one is refused, not cut. Ours: real manifests are a few
 * hundred bytes; a manifest symlinked to `/dev/zero` or a huge file must not be read whole (issue 20).
 */
export const MAX_MANIFEST_BYTES = 256 * 1024;
/** The largest e `settings.json` read for `extensions_config`; a larger one counts as absent. Ours, as above. */
export const MAX_E_SETTINGS_BYTES = 1024 * 1024;

// ------------------------------------------------------------------ requests in flight (ours, issue 20)

/**
 * Requests (tool calls, commands, interceptions) one extension has written and not yet answered; more wait in the
 * host, unwritten, with their deadlines running (requestWindow.ts). Ours (issue 20): half the spec's 256-frame
 * queue, so a burst of calls against an extension that reads one line at a time can never overflow it, and events,
 * cancels and answers keep room.
 */
export const MAX_REQUESTS_IN_FLIGHT = 128;
/** …and at most this many bytes of them (one request always passes alone). Ours: half the spec's 16 MiB queue. */
export const MAX_REQUEST_BYTES_IN_FLIGHT = 8 * 1024 * 1024;
/** Requests waiting for a slot, per extension; past it a request is refused at once as `busy`. Ours (issue 20). */
export const MAX_REQUESTS_HELD = 4_096;

// ------------------------------------------------------------------ start and stop

/**
 * Default deadline for the `hello` frame (`zut.startTimeoutSeconds`). Ours: zut itself waits forever; 60 s lets a
 * cold `go run .` or `npx -y tsx` start while a hung program is still reported.
 */
export const DEFAULT_START_TIMEOUT_MS = 60_000;
/** Registration ends after this much silence without `ready` (auto-ready). Ours, as zut's host implementation. */
export const AUTO_READY_MS = 250;
/** Registration ends at the latest this long after `hello_ack` (ready-timeout). Ours, as zut's host implementation. */
export const READY_GRACE_MS = 3_000;
/**
 * For an agent's PreToolUse (the strict door), an extension whose registration did not end with `ready` may still be
 * a guard loading its rules or libraries (a Python guard's imports, a loaded machine): a call waits for it to
 * intercept `tool_call` or send `ready` until this long after its handshake; past it, it is taken for one that does
 * not guard (and remembered so: guardMemory.ts). Ours: three times READY_GRACE_MS, well inside HOOK_BUDGET_MS.
 */
export const REGISTRATION_PATIENCE_MS = 10_000;
/**
 * A call with no deadline of its own (`@zut`, the palette, MCP) waits this long for a guard the host knows that is
 * restarting, starting or not yet subscribed; then it is denied naming it. Ours: twice INTERCEPT_TIMEOUT_MS, the
 * time a running guard may take to answer.
 */
export const GUARD_RETURN_WAIT_MS = 10_000;
/**
 * While a call waits for guards that could not be asked yet (starting, restarting, not yet subscribed), how often the
 * guard door looks again. Ours: short beside INTERCEPT_TIMEOUT_MS, as a guard that comes up is asked at once.
 */
export const GUARD_START_POLL_MS = 25;
/** The guard memory (guardMemory.ts): at most this many extensions, in a file of at most this size. Ours. */
export const GUARD_MEMORY_MAX = 1_000;
export const GUARD_MEMORY_MAX_BYTES = 1024 * 1024;
/** After `shutdown`, the extension has this long to exit before SIGTERM. Spec ("waits up to 2s"). */
export const SHUTDOWN_GRACE_MS = 2_000;
/** After SIGTERM (to the group, and to escaped processes), this long before SIGKILL. Ours (the issue: "1 s"). */
export const KILL_GRACE_MS = 1_000;
/** After the child exited, how long its stdout may take to deliver its last bytes (a grandchild may hold it). Ours. */
export const EXIT_DRAIN_MS = 100;
/** An EOF on stdout without an exit within this is a transport failure. Ours. */
export const EOF_EXIT_WAIT_MS = 200;
/** Automatic restarts: give up at this many crashes within `RESTART_WINDOW_MS`. Ours (as VS Code's LSP client). */
export const RESTART_MAX_CRASHES = 5;
/** The window of `RESTART_MAX_CRASHES`. Ours (as VS Code's LSP client: 3 minutes). */
export const RESTART_WINDOW_MS = 3 * 60_000;

// ------------------------------------------------------------------ requests (spec)

/** `command_invoked` → `command_response`. Ours (zut waits on the command's context; 30 s keeps the UI honest). */
export const COMMAND_TIMEOUT_MS = 30_000;
/** `tool_call` → `tool_result` for non-interactive tools (`zut.toolTimeoutSeconds`). Spec ("default 60s"). */
export const TOOL_TIMEOUT_MS = 60_000;
/** `event_intercept` → `event_intercept_response`; a miss allows. Spec ("within 5s"). */
export const INTERCEPT_TIMEOUT_MS = 5_000;
/**
 * The deepest nesting of a tool call's arguments the host hands to guards (the `tool_call` event and interception).
 * Ours: the shallowest JSON reader among the languages extensions are written in, Python's `json` module, fails past
 * ~990 levels (its default recursion limit is 1000), and V8's own JSON.stringify overflows the stack a few thousand
 * levels deep; no real tool input comes near 512. A deeper call that a guard would have to judge is blocked in zut's
 * name (toolGuard.ts), never passed unjudged.
 */
export const TOOL_ARGS_MAX_DEPTH = 512;
/**
 * The largest tool arguments, encoded, the host hands to guards. Ours: a frame may not exceed MAX_FRAME_BYTES (the
 * spec's 4 MiB line buffer); 64 KiB are left for the rest of the frame. A larger call that a guard would have to
 * judge is blocked in zut's name.
 */
export const TOOL_ARGS_MAX_BYTES = MAX_FRAME_BYTES - 64 * 1024;
/** Joined `turn_start` contexts are cut at this many bytes. Spec (16 KiB). */
export const CONTEXT_CAP_BYTES = 16 * 1024;
/** One extension's opaque session state snapshot. Spec ("persisted snapshots at 256 KiB"). */
export const STATE_CAP_BYTES = 256 * 1024;

// ------------------------------------------------------------------ per-extension caps (ours, issue 11)

/** Registered commands per extension; more are refused (one diagnostic). Ours: a flood must not grow memory. */
export const MAX_COMMANDS_PER_EXT = 128;
/** Registered tools per extension; more are refused (one diagnostic). Ours. */
export const MAX_TOOLS_PER_EXT = 128;
/** Distinct status keys shown per extension; new keys past it are refused (one diagnostic). Ours. */
export const MAX_STATUS_KEYS_PER_EXT = 64;
/** Distinct widgets shown per extension; new ids past it are refused (one diagnostic). Ours. */
export const MAX_WIDGETS_PER_EXT = 64;
/** Lines kept per widget; the rest are cut (one diagnostic). Ours. */
export const MAX_WIDGET_LINES = 500;
/** Notes kept per extension (newest first); older ones are dropped. Ours. */
export const MAX_NOTES_PER_EXT = 200;
/** Diagnostics kept per extension (newest last); older ones are dropped. Ours. */
export const MAX_DIAGNOSTICS_PER_EXT = 100;

// ------------------------------------------------------------------ per-extension byte caps (ours, issue 20; byteCaps.ts)
// The counts above bound entries, these bound bytes: a field past its cap is cut with one diagnostic (a schema
// refuses its tool). Goal (bench "flood at every cap"): one extension flooding within every cap keeps the host under
// 250 MiB RSS above idle. Sized for real use: a long tool description is a few KiB, a real schema a few tens.

/** A tool's or command's description. Ours: 128 tools × 16 KiB = 2 MiB at most, per extension. */
export const MAX_DESCRIPTION_BYTES = 16 * 1024;
/** A tool's input schema (its JSON); a larger one refuses the tool (a schema cannot be cut). Ours. */
export const MAX_SCHEMA_BYTES = 64 * 1024;
/** A note's text (`notify`). Ours: the view keeps 200 notes per extension, so ≤ 3.2 MiB of notes. */
export const MAX_NOTE_BYTES = 16 * 1024;
/** One diagnostic (it may quote extension text). Ours: 100 diagnostics × 2 KiB. */
export const MAX_DIAGNOSTIC_BYTES = 2 * 1024;
/** A status item's text, a widget's or panel's title. Ours: a status bar item shows a few dozen characters. */
export const MAX_STATUS_TEXT_BYTES = 1024;
/** One widget line. Ours. */
export const MAX_WIDGET_LINE_BYTES = 1024;
/** One widget in all (its lines are cut past it). Ours: 64 widgets × 64 KiB = 4 MiB. */
export const MAX_WIDGET_BYTES = 64 * 1024;
/** One panel render in all (lines cut past it). Ours. */
export const MAX_PANEL_BYTES = 256 * 1024;
/** Panels one extension may have open at once (each is a webview in VS Code); more are refused. Ours (as widgets). */
export const MAX_PANELS_PER_EXT = 64;
/**
 * What one extension's registrations, status items, widgets and panels may keep at once; past it new ones are
 * refused (one diagnostic). Ours: well under the sum of the per-field caps, so the total binds first.
 */
export const MAX_EXT_RETAINED_BYTES = 8 * 1024 * 1024;

// ------------------------------------------------------------------ adapters (ours)

/** Manifest / executable changes on disk are collected this long before one reload or restart. Ours. */
export const WATCH_DEBOUNCE_MS = 500;
/**
 * dist/main.js writes the V8 code cache of dist/extension.js this long after activate() returned (a load that used
 * none): late enough to hold the functions activation compiled and to stay off activation's path and the first
 * extensions' start. Ours (issue 28: loading the bundle was ~80% of VS Code's activation figure).
 */
export const CODE_CACHE_WRITE_DELAY_MS = 3_000;
/**
 * dist/main.js reads a code cache file only up to this size (a larger one is not a cache of ours: rejected, then
 * replaced), and writes none larger. Ours (issue 37: the bundle's cache is ~0.4 MB; this bounds what activation
 * reads into memory, 40× over).
 */
export const CODE_CACHE_MAX_BYTES = 16 * 1024 * 1024;
/** How often a row waiting for `hello` refreshes its "starting… (N s)" counter. Ours. */
export const STARTING_TICK_MS = 1_000;

// ------------------------------------------------------------------ consent (ours)

/**
 * A consent fingerprint covers every entry of the extension's directory (files, directories, links): past this
 * many the extension is refused rather than fingerprinted in part. Ours (issue 20: an extension is code and a few
 * dependencies, not a tree of thousands).
 */
export const FINGERPRINT_MAX_ENTRIES = 4096;
/** …and past this many bytes of file content (the directory's files plus the files `exec`/`args` name). Ours. */
export const FINGERPRINT_MAX_BYTES = 64 * 1024 * 1024;
/** Files hashed at once while fingerprinting (the hash itself stays in sorted path order). Ours. */
export const FINGERPRINT_PARALLEL_READS = 8;
/** The read buffer of the fingerprint's incremental hash (no file is read whole into memory). Ours. */
export const FINGERPRINT_READ_CHUNK_BYTES = 256 * 1024;

// ------------------------------------------------------------------ escaped processes (ours, escaped.ts)

/** How often the sweep checks whether signalled escaped processes are gone. Ours. */
export const ESCAPED_POLL_MS = 25;
/** SIGKILL rounds of the sweep (a holder may fork while it is being killed). Ours. */
export const ESCAPED_KILL_ROUNDS = 3;

// ------------------------------------------------------------------ chat, skills and views (ours)

/** Only the head of a SKILL.md is read for its frontmatter. Ours. */
export const SKILL_FRONTMATTER_BYTES = 64 * 1024;
/** SKILL.md files larger than this are cut for the model (with a note saying so); so is a skill file read over MCP. Ours. */
export const SKILL_MAX_BYTES = 256 * 1024;
/**
 * The skills catalog offered up front (one line per skill: name, extension, description, in the `skill` tool's
 * description, the `@zut` preamble and the hooks' SessionStart context) stops listing skills past this many bytes.
 * Ours: ~8 skills with the Agent Skills spec's longest (1024-character) descriptions, far more at usual lengths; the
 * tool's input schema names every skill anyway.
 */
export const SKILL_CATALOG_MAX_BYTES = 8 * 1024;
/** Text kept per chat message in a persisted session transcript. Ours. */
export const CHAT_TEXT_MAX_CHARS = 64 * 1024;
/** Session branches remembered (least recently used dropped). Ours. */
export const CHAT_BRANCHES_MAX = 500;
/** A tool call's one-line summary in chat is cut at this many characters. Ours. */
export const TOOL_SUMMARY_MAX_CHARS = 160;
/** Chat responses kept for diagnostics (`zut.chat.recentResponses`). Ours. */
export const CHAT_RECENT_RESPONSES = 20;
/**
 * `@zut` round marks kept for `npm run bench:ui` (src/host/chat/roundMarks.ts; only with ZUT_BENCH_MARKS=1). Ours: a
 * tool round makes 5–6, the bench reads them after each round; the cap only bounds a forgotten switch.
 */
export const CHAT_ROUND_MARKS_MAX = 1000;
/**
 * `submit`s waiting for the running `@zut` request: at most this many per extension. Ours (issue 20): a further
 * submit replaces the extension's pending one (its latest intent wins), so a flood opens chat once, not N times.
 */
export const CHAT_PENDING_SUBMITS_PER_EXT = 1;
/** Questions (e's `ui.select`/`ui.confirm`/`ui.input`) one extension may ask per window; more are refused. Ours (issue 20). */
export const QUESTIONS_PER_WINDOW = 3;
/** The sliding window of `QUESTIONS_PER_WINDOW`. Ours: three modals a minute is plenty for a real extension. */
export const QUESTION_WINDOW_MS = 60_000;
/** At most one failure notification per extension in this window. Ours. */
export const FAILURE_TOAST_QUIET_MS = 30_000;
/** Extensions view: change bursts are coalesced into one refresh after this. Ours. */
export const VIEW_REFRESH_DELAY_MS = 50;
/**
 * What follows the extensions' changes but no person waits on — the watchers of their executables, the agent-mode
 * server's tool list — is brought up to date once per burst, this long after its last change. Ours (issue 28: a
 * window starting 20 extensions rebuilt both on every one of their state changes, ~100 ms of the extension host).
 */
export const CHANGE_SETTLE_MS = 50;
/** Read-only `zut:` documents (doctor reports, tool results) whose text is kept. Ours: a session's worth, bounded. */
export const MAX_ZUT_DOCUMENTS = 64;

// ------------------------------------------------------------------ model-facing tool names and the MCP bridge

/** Longest model-facing tool name: VS Code and MCP accept `^[A-Za-z0-9_-]{1,64}$` (toolNames.ts). Spec (theirs). */
export const MODEL_TOOL_NAME_MAX = 64;
/** The largest JSON-RPC message (one line) accepted from an MCP client or relay; longer lines are refused. Ours. */
export const MAX_MCP_MESSAGE_BYTES = 8 * 1024 * 1024;
/** How long an MCP relay has to present its token after connecting. Ours. */
export const RELAY_HANDSHAKE_MS = 5_000;
/**
 * The longest first line (`{"token":"…"}`, 77 bytes) a relay may send before it is authenticated; longer, the socket
 * is closed. Ours: an unauthenticated peer must not make the host buffer more (issue 20).
 */
export const RELAY_HANDSHAKE_MAX_BYTES = 4 * 1024;
/** MCP relay tokens kept valid at once (one per server start VS Code asked for, used up by its relay; the oldest drop first). Ours. */
export const MAX_RELAY_TOKENS = 16;
/**
 * How long a server start VS Code asked for (a token issued) counts as live before its relay has connected: tool
 * list changes meanwhile keep the definition's version, which would make VS Code stop the starting server. Ours.
 */
export const RELAY_START_MS = 15_000;
/**
 * Bytes waiting for an MCP client that is not reading (answers and list changes; progress is coalesced to one line
 * per running call); past it the client is treated as gone. Ours (issue 20): a few large tool results.
 */
export const MCP_OUTBOX_MAX_BYTES = 64 * 1024 * 1024;
/** A `notifications/progress` message (an extension's note or status line) is clipped to this. Ours: a progress line. */
export const MCP_PROGRESS_MAX_CHARS = 2_000;
/**
 * `zut-host mcp`: how long a request other than `initialize` / `ping` waits for the first load before it is answered
 * with the extensions ready by then (later ones arrive with `tools/list_changed`). Ours: a client that lists once
 * right after `initialize` sees what starts in that time; none waits for a slow extension's 60 s start deadline.
 */
export const MCP_FIRST_LOAD_WAIT_MS = 5_000;
/** MCP conversations remembered as already announced (`session_start`); least recently used drop first. Ours. */
export const MAX_MCP_SESSIONS = 500;

// ------------------------------------------------------------------ authoring

/** The longest name "New Extension…" / `zut-host new` accepts (a directory, a log file and a command name). Ours. */
export const NEW_EXTENSION_NAME_MAX = 48;

// ------------------------------------------------------------------ zot extensions (zot-extensions.md)

/** A zot extension's `call_tool` ends after this (the guards and the call included). Spec (zot: "60 seconds"). */
export const CALL_TOOL_TIMEOUT_MS = 60_000;
/** A `call_tool` result is cut to this many bytes of text and image data (`truncated: true`). Spec (zot: 256 KiB). */
export const CALL_TOOL_RESULT_MAX_BYTES = 256 * 1024;
/** At most this many tool calls in one `call_tool` chain, the original call included. Spec (zot: "at most four"). */
export const CALL_TOOL_MAX_CHAIN = 4;
/** `before_agent_start`: a `system_prompt` reply longer than this (UTF-8 bytes) is ignored. Spec (zot: 1 MiB). */
export const SYSTEM_PROMPT_MAX_BYTES = 1024 * 1024;

// ------------------------------------------------------------------ e extensions (e-extensions.md, issue 13)

/** The `initialize` answer must arrive within this, or the extension is skipped. Spec (e: "within 5 s"). */
export const E_INITIALIZE_TIMEOUT_MS = 5_000;
/** Unanswered requests one e extension may have open; more are answered with an error at once. Spec (e: 32). */
export const E_MAX_PENDING_EXT_REQUESTS = 32;
/** Lines of an e panel (`ui.panel`); the rest are cut. Spec (e: "at most 200 lines"). */
export const E_PANEL_MAX_LINES = 200;
/** Columns of an e status or activity slot (`ui.status`, `ui.activity`); longer text is clipped. Spec (e: 40). */
export const E_STATUS_MAX_COLUMNS = 40;
/** Rows of an e widget (`ui.widget`); the rest are cut. Spec (e: "eight rows at most"). */
export const E_WIDGET_MAX_ROWS = 8;
/** Characters of one `tool.update` chunk shown as progress; longer chunks are clipped. Ours (a progress line). */
export const E_PROGRESS_MAX_CHARS = 2_000;

// ------------------------------------------------------------------ install and `zut-host ext` (ours, issue 23)

/** `git clone --depth 1` of an install source must end within this (then its process group is killed). Ours. */
export const GIT_CLONE_TIMEOUT_MS = 5 * 60_000;
/** `go build -trimpath` of `--build=go` must end within this (a cold module download included). Ours. */
export const GO_BUILD_TIMEOUT_MS = 10 * 60_000;
/** The tail of a failed git or go run's output quoted in the error. Ours: enough for the compiler's first errors. */
export const TOOL_OUTPUT_TAIL_BYTES = 8 * 1024;
/** An install plan lists at most this many files by name (then "… and N more"). Ours: readable in a dialog. */
export const INSTALL_PLAN_MAX_FILES = 40;
/** The consent question lists at most this many extensions by name (then "… and N more"). Ours: a modal's height. */
export const CONSENT_QUESTION_MAX_LISTED = 12;
/** One extension's line in the consent question (name, command, description), cut past this. Ours: a modal's width. */
export const CONSENT_QUESTION_MAX_LINE = 160;
/** `zut-host ext logs -f` checks the log for new bytes this often. Ours: polling works on every file system. */
export const LOG_FOLLOW_POLL_MS = 200;

/**
 * A hook command's stdin (`zut-host hook`): the agent's JSON for one event. Ours: a PreToolUse input carries one
 * tool call's arguments (a file's content at most); 8 MiB keeps a runaway writer from filling our memory.
 */
export const HOOK_INPUT_MAX_BYTES = 8 * 1024 * 1024;
/**
 * How long the window's hook socket waits for a connected hook's one request line (src/hooks/server.ts). Ours: the
 * hook writes it as soon as it connects (local, at most twice HOOK_INPUT_MAX_BYTES); a peer that connects and sends
 * nothing is dropped instead of held open.
 */
export const HOOK_REQUEST_MS = 10_000;
/**
 * The timeout written into an agent's hook entry (`zut-host hook install`), seconds. Ours: VS Code's default (30 s,
 * hooks-reference.md); a headless host starts the extensions and asks the guards (5 s each) within it.
 */
export const HOOK_TIMEOUT_SECONDS = 30;
/**
 * The whole of one `zut-host hook` call, from its start to its answer, whatever a window, the warm host or an
 * extension does. Ours: the 30 s timeout we install (HOOK_TIMEOUT_SECONDS; VS Code's and Copilot CLI's default too)
 * less 5 s for Node's start, the agent's spawn and its reading of the answer — past the agent's timeout a hook's call
 * runs unjudged (each agent treats a timed-out hook as "continue"), so ours comes first: a PreToolUse it could not
 * judge in time is denied.
 */
export const HOOK_BUDGET_MS = 25_000;
/**
 * How long a hook waits for its input on stdin, from its start, when the agent neither closes stdin nor has written
 * a whole JSON object (hooks/stdin.ts): an agent writes the input at once (Cline CLI's detached events write it and
 * leave stdin open: the object is read as soon as it is whole). Ours: a fifth of HOOK_BUDGET_MS, so the rest is left
 * to answer; past it the call fails the agent's way (a PreToolUse denies), never waits for the agent's timeout.
 */
export const HOOK_STDIN_MS = 5_000;
/**
 * Codex CLI's own default hook timeout (seconds), which the trusted hash it keeps for a hook counts when the entry
 * names none (Codex 0.169.0: `codex app-server` hooks/list; agentSetup/agents/codexTrust.ts). Codex's, not ours.
 */
export const CODEX_DEFAULT_HOOK_TIMEOUT_SECONDS = 600;
/** A host answers this long before the hook's own deadline, so its answer (naming what was late) is the one read. Ours. */
export const HOOK_ANSWER_MARGIN_MS = 1_000;
/**
 * …and the guard door stops waiting for extensions still starting this long before the host's answer is due, so its
 * denial (naming them) is that answer rather than a bare "did not answer in time". Ours.
 */
export const HOOK_DOOR_MARGIN_MS = 300;
/**
 * A warm host's start lock (src/hooks/warmHost.ts) older than this is a start that died: another hook may start one.
 * Ours: the host removes it once it listens (Node's start and the CLI bundle: ~0.3 s here); ten times that for a
 * loaded machine.
 */
export const HOOK_HOST_START_MS = 5_000;
/**
 * A warm hook host with no call for this long stops its extensions and exits (`zut-host hook host --idle-timeout`,
 * `$ZUT_HOOK_HOST_IDLE_SECONDS`). Ours: an agent's turns come minutes apart at most; the next call after it starts a
 * new one (the cold figure of `npm run bench`'s agent-hook row).
 */
export const HOOK_HOST_IDLE_MS = 10 * 60_000;
/** How often a warm hook host checks that its executable (dist/cli.js) is still the one it runs. Ours. */
export const HOOK_HOST_CHECK_MS = 10_000;
/**
 * How long `zut-host hook host stop` waits for the hosts it signalled to exit (each stops its extensions first:
 * shutdown, grace, SIGTERM, SIGKILL). Ours.
 */
export const HOOK_HOST_STOP_WAIT_MS = 15_000;
/**
 * Where a warm host's pid cannot be told from a reused one by its start identity (no /proc: macOS, Windows; a file
 * written without one), `status`/`stop` connect to its socket to see it listens, and give up after this. Ours: the
 * kernel accepts (into the backlog, however busy the host) or refuses a local connect at once; the bound covers only
 * the unexpected.
 */
export const HOOK_HOST_PROBE_MS = 2_000;
/**
 * What a host answering hooks remembers of each agent session's recent tool calls, to tie a later permission event
 * (an agent's PermissionRequest, Notification, PostToolUse) to its call: this many sessions, the latest calls of each.
 * Ours: an agent asks about the call it is making now; a few dozen cover parallel calls and subagents.
 */
export const HOOK_MEMORY_SESSIONS = 64;
export const HOOK_MEMORY_CALLS = 32;
/**
 * A remembered call is kept this long, in memory and on disk, and no call older is matched. Ours: a permission prompt
 * follows its call within seconds, a result within the call's run (a long build: minutes).
 */
export const HOOK_MEMORY_TTL_MS = 30 * 60_000;
/**
 * The same memory on disk (one private file per call in the hooks directory), for the call a host other than the one
 * that answered its PreToolUse hears about later (the first call answered by the hook itself while the warm host
 * starts; a window opened mid-session), written only while an extension subscribes to an event that needs the call:
 * at most this many files for all sessions (the oldest removed at each write) and HOOK_MEMORY_CALLS per session, and
 * only for inputs up to this size (a larger one stays in the answering host's memory alone). Ours: a file is needed
 * for the seconds between a call and the event another host answers; a few hundred cover every session's calls in
 * flight, and a write lists no more than that. Tool inputs are a few KB, a file an agent writes may be far larger.
 */
export const HOOK_MEMORY_FILES = 256;
export const HOOK_MEMORY_FILE_MAX_BYTES = 64 * 1024;
/**
 * While the warm hook host waits for a process to exit (the hook that started it, `--after-pid`, before it starts
 * its extensions; a host `hook host stop` signalled), how often it looks again. Ours.
 */
export const HOOK_START_POLL_MS = 25;
/**
 * A zut MCP server publishes at most this many of its tool names for the hooks of other processes
 * (src/hooks/mcpServers.ts): past it, a tool is guarded by the hook as well. Ours: far above any catalog we have seen,
 * and it bounds what a hook reads on a call to a tool named as ours.
 */
export const MCP_SERVED_MAX_NAMES = 1_000;
