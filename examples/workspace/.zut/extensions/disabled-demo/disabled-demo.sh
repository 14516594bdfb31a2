#!/bin/sh
# disabled-demo: shipped with "enabled": false, so a host lists it but never starts it. If enabled, it
# registers /disabled-demo, which displays a fixed line. Minimal frame handling (see ../shell for parsing).
printf '%s\n' '{"type":"hello","protocol_version":2,"name":"disabled-demo","version":"1.0.0","capabilities":["commands"]}'
while IFS= read -r line; do
  case $line in
    *'"type":"hello_ack"'*)
      printf '%s\n' '{"type":"register_command","name":"disabled-demo","description":"proves the extension was started"}' '{"type":"ready"}' ;;
    *'"type":"command_invoked"'*)
      id=$(printf '%s\n' "$line" | sed -n 's/.*"id":"\([A-Za-z0-9_.:-]*\)".*/\1/p')
      printf '{"type":"command_response","id":"%s","action":"display","display":"disabled-demo is running"}\n' "$id" ;;
    *'"type":"shutdown"'*)
      printf '%s\n' '{"type":"shutdown_ack"}'; exit 0 ;;
  esac
done
