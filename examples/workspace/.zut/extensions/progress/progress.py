#!/usr/bin/env python3
"""progress: a zut extension (protocol v2) that drives the host's persistent chrome.

/progress-demo                      a fixed sequence of status/widget/notify/clear_notes/alert frames
/status-set <key> <level> <text>    status frame        /status-clear <key>   status frame with empty text
/notify <level> <message>           notify frame        /clear-notes          clear_notes frame
/widget <id> <title>|<line>|<line>  widget frame        /widget-clear <id>    widget_clear frame
/bell                               alert {kind: bell}
/submit <text>                      spontaneous submit  /slash </cmd args>    spontaneous submit_slash
/progress-log                       a panel (id "progress-log") listing the frames this extension sent, newest
                                    first; ↑/↓ move, c clears, esc closes

Every command answers action "noop" (or "noop" + error on bad input). The one-way frames of a command
are written BEFORE its command_response, so once the host has the response the effect is already
applied; /progress-demo answers first and then plays its sequence from a background thread.
Standard library only. stdout carries protocol frames only; diagnostics go to stderr.
"""
import collections
import json
import sys
import threading
import time

NAME = "progress"
VERSION = "1.0.0"
PROTOCOL_VERSION = 2
STEP_DELAY = 0.1  # seconds between demo steps
NOTIFY_LEVELS = ("info", "success", "warn", "error")
WIDGET_ID = "progress"
LOG_PANEL_ID = "progress-log"
LOG_FOOTER = "↑/↓ move · c clear · esc close"

_out_lock = threading.Lock()
_demo_lock = threading.Lock()
_stopping = threading.Event()
_demo_thread = None  # the running demo, joined before shutdown_ack so no frame follows it
_history = collections.deque(maxlen=50)  # one line per one-way frame sent, for the log panel
_log_panel = {"open": False, "selected": 0}


def log(msg: str) -> None:
    print(f"[progress] {msg}", file=sys.stderr, flush=True)


def emit(frame: dict) -> None:
    line = json.dumps(frame, separators=(",", ":")) + "\n"
    with _out_lock:  # the demo thread and the main loop both write frames
        sys.stdout.write(line)
        sys.stdout.flush()
    kind = frame.get("type")
    if kind in ("status", "widget", "widget_clear", "notify", "clear_notes", "alert", "submit", "submit_slash"):
        detail = frame.get("key") or frame.get("id") or frame.get("level") or frame.get("kind") or ""
        text = frame.get("text") or frame.get("message") or frame.get("title") or ""
        _history.appendleft(f"{time.strftime('%H:%M:%S')} {kind} {detail} {text}".rstrip())
        if _log_panel["open"]:
            emit(dict(type="panel_render", panel_id=LOG_PANEL_ID, **log_panel_view()))


def log_panel_view() -> dict:
    """Title, lines (selected row prefixed "▸ ") and footer of the log panel."""
    items = list(_history) or ["(no frames yet: try /progress-demo)"]
    sel = min(_log_panel["selected"], len(items) - 1)
    _log_panel["selected"] = sel
    lines = [("▸ " if i == sel else "  ") + item for i, item in enumerate(items)]
    return {"title": f"Progress log ({len(_history)} frames)", "lines": lines, "footer": LOG_FOOTER}


def on_log_key(key: str, text: str) -> None:
    if key == "up":
        _log_panel["selected"] = max(0, _log_panel["selected"] - 1)
    elif key == "down":
        _log_panel["selected"] += 1
    elif key == "rune" and text == "c":
        _history.clear()
        _log_panel["selected"] = 0
    else:
        return
    emit(dict(type="panel_render", panel_id=LOG_PANEL_ID, **log_panel_view()))


def status(key: str, level: str, text: str) -> None:
    frame = {"type": "status", "key": key, "text": text}
    if level:
        frame["level"] = level
    emit(frame)


def widget(title: str, lines: list, wid: str = WIDGET_ID) -> None:
    emit({"type": "widget", "id": wid, "position": "above_input", "title": title, "lines": lines})


def notify(level: str, message: str) -> None:
    emit({"type": "notify", "level": level, "message": message})


# Each step is a list of frames-producing calls; the steps are separated by STEP_DELAY.
DEMO = [
    lambda: (
        status("build", "info", "build: compiling"),
        widget("Progress", ["Indexing files", "0/20 complete"]),
        notify("info", "Indexing 20 files"),
    ),
    lambda: (
        status("build", "warning", "build: 2 warnings"),
        widget("Progress", ["Indexing files", "12/20 complete"]),
        notify("warn", "2 deprecation warnings"),
    ),
    lambda: (
        status("tests", "error", "tests: 1 failed"),
        widget("Progress", ["Running tests", "20/20 complete"]),
        notify("error", "1 test failed, retrying"),
    ),
    lambda: (
        status("tests", "success", "tests: 42 passed"),
        status("build", "success", "build: ok"),
        widget("Progress", ["Done", "20/20 complete"]),
        notify("success", "All checks passed"),
    ),
    lambda: emit({"type": "clear_notes"}),
    lambda: emit({"type": "alert", "kind": "bell", "reason": "done"}),
    lambda: (
        status("build", "", ""),
        status("tests", "", ""),
        emit({"type": "widget_clear", "id": WIDGET_ID}),
    ),
]


def run_demo() -> None:
    try:
        for i, step in enumerate(DEMO):
            if i:
                time.sleep(STEP_DELAY)
            if _stopping.is_set():
                return
            step()
        log("demo finished")
    finally:
        _demo_lock.release()


START_DEMO = "_start_demo"  # marker in on_command's result: start the demo once the response is written


def usage(text: str) -> dict:
    return {"action": "noop", "error": f"usage: {text}"}


def on_command(name: str, args: str) -> dict:
    """Runs one command; returns the command_response fields."""
    if name == "progress-demo":
        if not _demo_lock.acquire(blocking=False):
            return {"action": "noop", "error": "the progress demo is already running"}
        return {"action": "noop", START_DEMO: True}
    if name == "progress-log":
        _log_panel["open"] = True
        return {"action": "open_panel", "open_panel": dict(id=LOG_PANEL_ID, **log_panel_view())}
    if name == "status-set":
        parts = args.split(None, 2)
        if len(parts) < 3:
            return usage("/status-set <key> <level> <text>")
        status(parts[0], parts[1], parts[2])
    elif name == "status-clear":
        if not args or len(args.split()) != 1:
            return usage("/status-clear <key>")
        status(args, "", "")
    elif name == "notify":
        parts = args.split(None, 1)
        if len(parts) < 2 or parts[0] not in NOTIFY_LEVELS:
            return usage("/notify <info|success|warn|error> <message>")
        notify(parts[0], parts[1])
    elif name == "widget":
        parts = args.split(None, 1)
        if len(parts) < 2:
            return usage("/widget <id> <title>|<line1>|<line2>...")
        fields = [f.strip() for f in parts[1].split("|")]
        widget(fields[0], fields[1:], wid=parts[0])
    elif name == "widget-clear":
        if not args or len(args.split()) != 1:
            return usage("/widget-clear <id>")
        emit({"type": "widget_clear", "id": args})
    elif name == "clear-notes":
        emit({"type": "clear_notes"})
    elif name == "bell":
        emit({"type": "alert", "kind": "bell", "reason": args or "bell command"})
    elif name == "submit":
        if not args:
            return usage("/submit <text>")
        emit({"type": "submit", "text": args})
    elif name == "slash":
        if not args.startswith("/") or len(args) < 2:
            return usage("/slash </command args>")
        emit({"type": "submit_slash", "text": args})
    else:
        return {"action": "noop", "error": f"progress: unknown command /{name}"}
    return {"action": "noop"}


COMMANDS = [
    ("progress-demo", "play a short status/widget/notify/alert demo"),
    ("progress-log", "open a panel listing the frames this extension sent"),
    ("status-set", "set a status item: /status-set <key> <level> <text>"),
    ("status-clear", "clear a status item: /status-clear <key>"),
    ("notify", "push a note: /notify <info|success|warn|error> <message>"),
    ("widget", "show a widget: /widget <id> <title>|<line1>|<line2>"),
    ("widget-clear", "remove a widget: /widget-clear <id>"),
    ("clear-notes", "remove this extension's notes"),
    ("bell", "request a bell alert"),
    ("submit", "submit a prompt: /submit <text>"),
    ("slash", "run a slash command: /slash </command args>"),
]


def stop_demo() -> None:
    """Stops a running demo at its next step (at most STEP_DELAY away) and waits for it."""
    _stopping.set()
    if _demo_thread is not None:
        _demo_thread.join(timeout=1)


def main() -> int:
    global _demo_thread
    emit({"type": "hello", "protocol_version": PROTOCOL_VERSION, "name": NAME, "version": VERSION,
          "capabilities": ["commands", "alerts", "panels"]})
    acked = False
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except json.JSONDecodeError as err:
            log(f"ignoring invalid frame: {err}")
            continue
        kind = msg.get("type") if isinstance(msg, dict) else None
        if kind == "hello_ack":
            if msg.get("protocol_version") != PROTOCOL_VERSION:
                log(f"unsupported protocol version {msg.get('protocol_version')!r}; exiting")
                return 1
            acked = True
            for name, description in COMMANDS:
                emit({"type": "register_command", "name": name, "description": description})
            emit({"type": "ready"})
        elif kind == "command_invoked" and acked:
            fields = on_command(str(msg.get("name", "")).lower(), str(msg.get("args") or "").strip())
            start_demo = fields.pop(START_DEMO, False)
            emit({"type": "command_response", "id": str(msg.get("id", "")), **fields})
            if start_demo:
                _demo_thread = threading.Thread(target=run_demo, daemon=True)
                _demo_thread.start()
        elif kind == "panel_key" and msg.get("panel_id") == LOG_PANEL_ID and _log_panel["open"]:
            on_log_key(str(msg.get("key", "")), str(msg.get("text") or ""))
        elif kind == "panel_close" and msg.get("panel_id") == LOG_PANEL_ID:
            _log_panel["open"] = False
        elif kind == "shutdown":
            stop_demo()
            emit({"type": "shutdown_ack"})
            return 0
        else:
            log(f"ignoring frame type {kind!r}")
    stop_demo()
    return 0  # stdin closed: the host is gone


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (BrokenPipeError, KeyboardInterrupt):
        sys.exit(0)
