#!/bin/sh
# shell: a zut extension (protocol v2) in plain POSIX sh + sed/awk, no jq.
#   /uptime      -> display "uptime: <output of uptime>"
#   /git-branch  -> display "branch: <name>" for the project (hello_ack.cwd), or "not a git repository: <cwd>"
# Frames are parsed with awk: only the top-level "type", "id", "name", "cwd" and "protocol_version" are needed,
# and the host writes them before any nested object. stdout carries frames only; logs go to stderr.

NAME=shell
VERSION=1.0.0
PROJECT_CWD=

log() { printf '[shell] %s\n' "$*" >&2; }

# field NAME LINE: the first "NAME":"string" value in LINE, with its simple JSON escapes decoded
# (\" \\ \/ \n \t; \uXXXX is kept as written).
field() {
  printf '%s\n' "$2" | awk -v key="$1" '{
    if (!match($0, "\"" key "\"[ \t]*:[ \t]*\"([^\"\\\\]|\\\\.)*\"")) exit
    v = substr($0, RSTART, RLENGTH)
    sub("^\"" key "\"[ \t]*:[ \t]*\"", "", v)
    v = substr(v, 1, length(v) - 1)
    out = ""
    for (i = 1; i <= length(v); i++) {
      c = substr(v, i, 1)
      if (c == "\\" && i < length(v)) {
        i++; c = substr(v, i, 1)
        if (c == "n") c = "\n"; else if (c == "t") c = "\t"; else if (c == "u") c = "\\u"
      }
      out = out c
    }
    print out
  }'
}

# number NAME LINE: the first "NAME":<integer> value in LINE.
number() {
  printf '%s\n' "$2" | awk -v key="$1" '{
    if (!match($0, "\"" key "\"[ \t]*:[ \t]*-?[0-9]+")) exit
    v = substr($0, RSTART, RLENGTH); sub(/^.*:[ \t]*/, "", v); print v
  }'
}

# json_string: stdin as one JSON string literal (backslashes, quotes, tabs and newlines escaped; other
# control characters dropped). sed does the escaping because awk implementations disagree on "\\" in gsub.
TAB=$(printf '\t')
json_string() {
  tr -d '\000-\010\013-\037' | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e "s/$TAB/\\\\t/g" |
    awk 'BEGIN { printf "\"" } { printf "%s%s", (NR > 1 ? "\\n" : ""), $0 } END { printf "\"" }'
}

emit() { printf '%s\n' "$1"; }

respond_display() { # id text
  emit "{\"type\":\"command_response\",\"id\":$(printf '%s' "$1" | json_string),\"action\":\"display\",\"display\":$(printf '%s' "$2" | json_string)}"
}

cmd_uptime() {
  if out=$(uptime 2>/dev/null); then
    printf 'uptime: %s' "$(printf '%s' "$out" | sed 's/^ *//')"
  else
    printf 'uptime: %s seconds' "$(cut -d' ' -f1 /proc/uptime 2>/dev/null || echo unknown)"
  fi
}

cmd_git_branch() {
  dir=${PROJECT_CWD:-.}
  if branch=$(git -C "$dir" symbolic-ref --short -q HEAD 2>/dev/null); then
    printf 'branch: %s' "$branch"
  elif commit=$(git -C "$dir" rev-parse --short HEAD 2>/dev/null); then
    printf 'branch: (detached at %s)' "$commit"
  else
    printf 'not a git repository: %s' "$dir"
  fi
}

emit "{\"type\":\"hello\",\"protocol_version\":2,\"name\":\"$NAME\",\"version\":\"$VERSION\",\"capabilities\":[\"commands\"]}"

while IFS= read -r line || [ -n "$line" ]; do
  type=$(field type "$line")
  case $type in
    hello_ack)
      version=$(number protocol_version "$line")
      if [ "$version" != 2 ]; then
        log "unsupported protocol version '$version'; exiting"
        exit 1
      fi
      PROJECT_CWD=$(field cwd "$line")
      emit '{"type":"register_command","name":"uptime","description":"show how long this machine has been up"}'
      emit '{"type":"register_command","name":"git-branch","description":"show the current git branch of the project"}'
      emit '{"type":"ready"}'
      ;;
    command_invoked)
      id=$(field id "$line")
      name=$(field name "$line")
      case $name in
        uptime) respond_display "$id" "$(cmd_uptime)" ;;
        git-branch) respond_display "$id" "$(cmd_git_branch)" ;;
        *) emit "{\"type\":\"command_response\",\"id\":$(printf '%s' "$id" | json_string),\"action\":\"noop\",\"error\":\"shell: unknown command\"}" ;;
      esac
      ;;
    shutdown)
      emit '{"type":"shutdown_ack"}'
      exit 0
      ;;
    *)
      log "ignoring frame type '$type'"
      ;;
  esac
done
exit 0 # stdin closed: the host is gone
