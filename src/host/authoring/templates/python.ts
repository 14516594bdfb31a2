/** Python 3, standard library only: one file with a small frame loop. */
import { TOOL_SCHEMA_JSON, type Template } from './common';

export const pythonTemplate: Template = {
  exec: './main.py',
  language: 'python',
  main: 'main.py',
  files: ({ name, command, tool }) => [
    {
      path: 'main.py',
      executable: true,
      content: `#!/usr/bin/env python3
"""${name}: a zut extension (protocol v2) in Python, standard library only.

stdout carries protocol frames only (one JSON object per line); log to stderr (the extension's log).
Saving this file restarts the extension.
"""
import json
import sys

NAME = ${JSON.stringify(name)}


def emit(frame):
    sys.stdout.write(json.dumps(frame) + "\\n")
    sys.stdout.flush()


def log(*args):
    print(f"[{NAME}]", *args, file=sys.stderr, flush=True)


def on_command(name, args):
    """Returns the command_response fields for /name args."""
    if name == ${JSON.stringify(command)}:
        return {"action": "display", "display": f"Hello from ${name}: {args or 'world'}"}
    return {"action": "noop", "error": f"unknown command /{name}"}


def on_tool(name, args):
    """Returns (text, is_error) for a tool call."""
    if name == ${JSON.stringify(tool)}:
        who = args.get("who") if isinstance(args, dict) else None
        if not isinstance(who, str) or not who.strip():
            return "who is required (a non-empty string)", True
        return f"Hello, {who}!", False
    return f"unknown tool {name}", True


def main():
    emit({"type": "hello", "protocol_version": 2, "name": NAME, "version": "0.1.0", "capabilities": ["commands", "tools"]})
    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello_ack":
            if msg.get("protocol_version") != 2:
                log("unsupported protocol version", msg.get("protocol_version"))
                sys.exit(1)
            emit({"type": "register_command", "name": ${JSON.stringify(command)}, "description": "Say hello (try: /${command} Ada)"})
            emit({"type": "register_tool", "name": ${JSON.stringify(tool)}, "description": "Greet someone by name",
                  "schema": json.loads(${JSON.stringify(TOOL_SCHEMA_JSON)})})
            emit({"type": "ready"})
        elif kind == "command_invoked":
            emit({"type": "command_response", "id": msg["id"], **on_command(msg.get("name", ""), msg.get("args", ""))})
        elif kind == "tool_call":
            text, is_error = on_tool(msg.get("name", ""), msg.get("args") or {})
            emit({"type": "tool_result", "id": msg["id"], "content": [{"type": "text", "text": text}], "is_error": is_error})
        elif kind == "shutdown":
            emit({"type": "shutdown_ack"})
            return


if __name__ == "__main__":
    main()
`,
    },
  ],
};
