/**
 * Go (1.19+, standard library only). `run.sh` builds the binary when a source is newer, then runs it, so the
 * manifest's `exec` stays a file in the extension (Go must be on PATH). The binary goes to a build cache outside the
 * extension's folder (`$XDG_CACHE_HOME/zut-go/<checksum of the folder's path>/`, else `~/.cache/zut-go/…`): a build
 * writes nothing into the folder, so it never changes what a project extension's consent was given for (a binary
 * in the folder would be new content after every build, and would ask again at the next start).
 */
import { TOOL_SCHEMA_JSON, type Template } from './common';

export const goTemplate: Template = {
  exec: './run.sh',
  // Not read by run.sh: names main.go so saving it restarts the extension (and counts in its consent fingerprint).
  args: ['main.go'],
  language: 'go',
  main: 'main.go',
  files: ({ name, command, tool }) => [
    { path: 'go.mod', content: `module ${name.replace(/[^a-z0-9]/g, '')}ext\n\ngo 1.19\n` },
    {
      path: 'run.sh',
      executable: true,
      content: `#!/bin/sh
# Builds ${name} when a Go source is newer than the binary, then runs it. Build errors go to the extension's log.
# The binary lives in a build cache outside this folder, so building never changes the extension's files.
set -e
cd "$(dirname "$0")"
cache="\${XDG_CACHE_HOME:-$HOME/.cache}/zut-go/$(pwd -P | cksum | cut -d' ' -f1)"
bin="$cache/${name}"
if [ ! -x "$bin" ] || [ -n "$(find . -name '*.go' -newer "$bin")" ] || [ go.mod -nt "$bin" ]; then
  mkdir -p "$cache"
  go build -o "$bin" . >&2
fi
exec "$bin"
`,
    },
    {
      path: 'main.go',
      content: `// ${name}: a zut extension (protocol v2) in Go, standard library only.
// stdout carries protocol frames only (one JSON object per line); log to stderr (the extension's log).
// Saving this file restarts the extension; run.sh rebuilds it first (build errors go to the extension's log).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

const name = ${JSON.stringify(name)}

var out = json.NewEncoder(os.Stdout)

func emit(frame map[string]any) {
	if err := out.Encode(frame); err != nil {
		fmt.Fprintln(os.Stderr, "write:", err)
		os.Exit(1)
	}
}

type message struct {
	Type            string          \`json:"type"\`
	ID              string          \`json:"id"\`
	Name            string          \`json:"name"\`
	Args            json.RawMessage \`json:"args"\`
	ProtocolVersion int             \`json:"protocol_version"\`
}

func onCommand(cmd, args string) map[string]any {
	if cmd == ${JSON.stringify(command)} {
		if args == "" {
			args = "world"
		}
		return map[string]any{"action": "display", "display": "Hello from ${name}: " + args}
	}
	return map[string]any{"action": "noop", "error": "unknown command /" + cmd}
}

func onTool(tool string, raw json.RawMessage) (string, bool) {
	if tool != ${JSON.stringify(tool)} {
		return "unknown tool " + tool, true
	}
	var args struct {
		Who *string \`json:"who"\`
	}
	if err := json.Unmarshal(raw, &args); err != nil || args.Who == nil || strings.TrimSpace(*args.Who) == "" {
		return "who is required (a non-empty string)", true
	}
	return "Hello, " + *args.Who + "!", false
}

func main() {
	emit(map[string]any{"type": "hello", "protocol_version": 2, "name": name, "version": "0.1.0", "capabilities": []string{"commands", "tools"}})
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for in.Scan() {
		var m message
		if err := json.Unmarshal(in.Bytes(), &m); err != nil {
			fmt.Fprintln(os.Stderr, "bad frame:", err)
			continue
		}
		switch m.Type {
		case "hello_ack":
			if m.ProtocolVersion != 2 {
				fmt.Fprintln(os.Stderr, "unsupported protocol version", m.ProtocolVersion)
				os.Exit(1)
			}
			emit(map[string]any{"type": "register_command", "name": ${JSON.stringify(command)}, "description": "Say hello (try: /${command} Ada)"})
			emit(map[string]any{"type": "register_tool", "name": ${JSON.stringify(tool)}, "description": "Greet someone by name",
				"schema": json.RawMessage(${JSON.stringify(TOOL_SCHEMA_JSON)})})
			emit(map[string]any{"type": "ready"})
		case "command_invoked":
			var args string
			_ = json.Unmarshal(m.Args, &args)
			r := onCommand(m.Name, strings.TrimSpace(args))
			r["type"], r["id"] = "command_response", m.ID
			emit(r)
		case "tool_call":
			text, isError := onTool(m.Name, m.Args)
			emit(map[string]any{"type": "tool_result", "id": m.ID, "is_error": isError,
				"content": []map[string]string{{"type": "text", "text": text}}})
		case "shutdown":
			emit(map[string]any{"type": "shutdown_ack"})
			return
		}
	}
}
`,
    },
  ],
};
