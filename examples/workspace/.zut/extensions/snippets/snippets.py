#!/usr/bin/env python3
"""snippets: a zut extension (protocol v2) with one slash command per command_response action.

/explain <topic>    -> action "prompt"   (asks the model to explain the topic)
/license [spdx-id]  -> action "insert"   (an SPDX license header comment)
/snippet <name>     -> action "insert"   (a named snippet; unknown name -> action "noop" + error)
/wordcount <text>   -> action "display"  (word/character/line counts)
/snippets           -> action "display"  (lists the snippet names)

Standard library only. stdout carries protocol frames only; diagnostics go to stderr.
"""
import json
import sys

NAME = "snippets"
VERSION = "1.0.0"
PROTOCOL_VERSION = 2

SNIPPETS = {
    "py-main": (
        "Python entry point",
        'def main() -> None:\n    ...\n\n\nif __name__ == "__main__":\n    main()\n',
    ),
    "ts-test": (
        "vitest test skeleton",
        "import { describe, expect, it } from 'vitest';\n\n"
        "describe('subject', () => {\n  it('does the thing', () => {\n    expect(1 + 1).toBe(2);\n  });\n});\n",
    ),
    "sh-strict": (
        "POSIX sh strict-mode header",
        "#!/bin/sh\nset -eu\n",
    ),
    "gitignore-node": (
        ".gitignore for a Node project",
        "node_modules/\ndist/\ncoverage/\n*.log\n",
    ),
}

LICENSES = {"MIT", "Apache-2.0", "BSD-3-Clause", "GPL-3.0-only", "MPL-2.0", "ISC"}

COMMANDS = [
    ("explain", "ask the model to explain a topic: /explain <topic>"),
    ("license", "insert an SPDX license header: /license [MIT|Apache-2.0|...]"),
    ("snippet", "insert a named snippet: /snippet <name> (see /snippets)"),
    ("wordcount", "count words, characters and lines: /wordcount <text>"),
    ("snippets", "list the available snippets"),
]


def log(msg: str) -> None:
    print(f"[snippets] {msg}", file=sys.stderr, flush=True)


def emit(frame: dict) -> None:
    sys.stdout.write(json.dumps(frame, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def respond(req_id: str, action: str, **fields: str) -> None:
    emit({"type": "command_response", "id": req_id, "action": action, **fields})


def cmd_explain(req_id: str, args: str) -> None:
    if not args:
        respond(req_id, "noop", error="usage: /explain <topic>")
        return
    respond(
        req_id,
        "prompt",
        prompt=(
            f"Explain {args} to an experienced developer in under 150 words: "
            "what it is, when to use it, and one short example."
        ),
    )


def cmd_license(req_id: str, args: str) -> None:
    spdx = args or "MIT"
    match = next((lic for lic in LICENSES if lic.lower() == spdx.lower()), None)
    if match is None:
        respond(req_id, "noop", error=f'unknown license "{spdx}" (known: {", ".join(sorted(LICENSES))})')
        return
    respond(req_id, "insert", insert=f"// SPDX-License-Identifier: {match}\n")


def cmd_snippet(req_id: str, args: str) -> None:
    if not args:
        respond(req_id, "noop", error="usage: /snippet <name> (see /snippets)")
        return
    entry = SNIPPETS.get(args.lower())
    if entry is None:
        respond(req_id, "noop", error=f'unknown snippet "{args}" (try /snippets)')
        return
    respond(req_id, "insert", insert=entry[1])


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def cmd_wordcount(req_id: str, args: str) -> None:
    words = len(args.split())
    lines = len(args.splitlines()) if args else 0
    respond(req_id, "display", display=f"{plural(words, 'word')}, {plural(len(args), 'character')}, {plural(lines, 'line')}")


def cmd_snippets(req_id: str, _args: str) -> None:
    rows = [f"{name} - {desc}" for name, (desc, _) in sorted(SNIPPETS.items())]
    respond(req_id, "display", display="Snippets:\n" + "\n".join(rows))


HANDLERS = {
    "explain": cmd_explain,
    "license": cmd_license,
    "snippet": cmd_snippet,
    "wordcount": cmd_wordcount,
    "snippets": cmd_snippets,
}


def main() -> int:
    emit({"type": "hello", "protocol_version": PROTOCOL_VERSION, "name": NAME, "version": VERSION,
          "capabilities": ["commands"]})
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
            req_id = str(msg.get("id", ""))
            name = str(msg.get("name", "")).lower()
            handler = HANDLERS.get(name)
            if handler is None:
                respond(req_id, "noop", error=f"snippets: unknown command /{name}")
            else:
                handler(req_id, str(msg.get("args") or "").strip())
        elif kind == "shutdown":
            emit({"type": "shutdown_ack"})
            return 0
        else:
            log(f"ignoring frame type {kind!r}")
    return 0  # stdin closed: the host is gone


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (BrokenPipeError, KeyboardInterrupt):
        sys.exit(0)
