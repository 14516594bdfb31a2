/** POSIX sh + sed/awk (no jq): frames are parsed for their top-level string fields only. */
import { TOOL_SCHEMA_JSON, type Template } from './common';

export const shTemplate: Template = {
  exec: './main.sh',
  language: 'sh',
  main: 'main.sh',
  files: ({ name, command, tool }) => [
    {
      path: 'main.sh',
      executable: true,
      content: `#!/bin/sh
# ${name}: a zut extension (protocol v2) in POSIX sh + sed/awk, no jq.
# stdout carries protocol frames only (one JSON object per line); log to stderr (the extension's log).
# Saving this file restarts the extension.

log() { printf '[${name}] %s\\n' "$*" >&2; }

# field NAME LINE: the first "NAME":"string" value in LINE (simple escapes \\" \\\\ \\n \\t decoded).
field() {
  printf '%s\\n' "$2" | awk -v key="$1" '{
    if (!match($0, "\\"" key "\\"[ \\t]*:[ \\t]*\\"([^\\"\\\\\\\\]|\\\\\\\\.)*\\"")) exit
    v = substr($0, RSTART, RLENGTH)
    sub("^\\"" key "\\"[ \\t]*:[ \\t]*\\"", "", v)
    v = substr(v, 1, length(v) - 1)
    out = ""
    for (i = 1; i <= length(v); i++) {
      c = substr(v, i, 1)
      if (c == "\\\\" && i < length(v)) { i++; c = substr(v, i, 1); if (c == "n") c = "\\n"; else if (c == "t") c = "\\t" }
      out = out c
    }
    print out
  }'
}

# json_string: stdin as one JSON string literal.
json_string() {
  tr -d '\\000-\\010\\013-\\037' | sed -e 's/\\\\/\\\\\\\\/g' -e 's/"/\\\\"/g' |
    awk 'BEGIN { printf "\\"" } { printf "%s%s", (NR > 1 ? "\\\\n" : ""), $0 } END { printf "\\"" }'
}

emit() { printf '%s\\n' "$1"; }

emit '{"type":"hello","protocol_version":2,"name":"${name}","version":"0.1.0","capabilities":["commands","tools"]}'

while IFS= read -r line || [ -n "$line" ]; do
  type=$(field type "$line")
  id=$(field id "$line")
  case "$type" in
    hello_ack)
      emit '{"type":"register_command","name":"${command}","description":"Say hello (try: /${command} Ada)"}'
      emit '{"type":"register_tool","name":"${tool}","description":"Greet someone by name","schema":${TOOL_SCHEMA_JSON}}'
      emit '{"type":"ready"}'
      ;;
    command_invoked)
      args=$(field args "$line")
      text=$(printf 'Hello from ${name}: %s' "\${args:-world}" | json_string)
      emit "{\\"type\\":\\"command_response\\",\\"id\\":\\"$id\\",\\"action\\":\\"display\\",\\"display\\":$text}"
      ;;
    tool_call)
      who=$(field who "$line")
      if [ -z "$who" ]; then
        emit "{\\"type\\":\\"tool_result\\",\\"id\\":\\"$id\\",\\"is_error\\":true,\\"content\\":[{\\"type\\":\\"text\\",\\"text\\":\\"who is required (a non-empty string)\\"}]}"
      else
        text=$(printf 'Hello, %s!' "$who" | json_string)
        emit "{\\"type\\":\\"tool_result\\",\\"id\\":\\"$id\\",\\"content\\":[{\\"type\\":\\"text\\",\\"text\\":$text}]}"
      fi
      ;;
    shutdown)
      emit '{"type":"shutdown_ack"}'
      exit 0
      ;;
  esac
done
`,
    },
  ],
};
