#!/usr/bin/env node
// briefing: a zut extension (protocol v2) that bundles a skill and watches for approvals.
//   skills/weather-briefing/SKILL.md -> offered to every agent by the host (extension.json `skills`); this program
//                                       never serves it: the host reads it when an agent loads the skill
//   tool_confirmation_requested      -> a note: which tool waits for your approval, and what it will do
// /approvals displays how many approvals were asked for and the last one. Node standard library only; stdout
// carries frames only.
import { createInterface } from 'node:readline';

const NAME = 'briefing';
const VERSION = '1.0.0';
const PROTOCOL_VERSION = 2;

const approvals = { count: 0, last: '' };

const log = (msg) => process.stderr.write(`[briefing] ${msg}\n`);
const emit = (frame) => process.stdout.write(JSON.stringify(frame) + '\n');

/** One line for a tool call that waits for approval: its name and the short preview of its confirmation dialog. */
function describe(msg) {
  const tool = typeof msg.tool_name === 'string' && msg.tool_name ? msg.tool_name : 'a tool';
  const preview = typeof msg.tool_preview === 'string' ? msg.tool_preview.trim() : '';
  return preview ? `${tool}: ${preview}` : tool;
}

function approvalsText() {
  if (approvals.count === 0) return 'briefing: no tool call has waited for your approval yet';
  return `briefing: ${approvals.count} tool call(s) waited for your approval\nlast: ${approvals.last}`;
}

let acked = false;

function onFrame(msg) {
  switch (msg.type) {
    case 'hello_ack':
      if (msg.protocol_version !== PROTOCOL_VERSION) {
        log(`unsupported protocol version ${msg.protocol_version}; exiting`);
        process.exit(1);
      }
      acked = true;
      emit({ type: 'subscribe', events: ['tool_confirmation_requested'] });
      emit({ type: 'register_command', name: 'approvals', description: 'show the tool calls that waited for your approval' });
      emit({ type: 'ready' });
      return;
    case 'event':
      if (msg.event !== 'tool_confirmation_requested') return;
      approvals.count++;
      approvals.last = describe(msg);
      emit({ type: 'notify', level: 'info', message: `approval needed: ${approvals.last}` });
      return;
    case 'command_invoked':
      if (!acked) return;
      if (String(msg.name).toLowerCase() === 'approvals') emit({ type: 'command_response', id: msg.id, action: 'display', display: approvalsText() });
      else emit({ type: 'command_response', id: msg.id, action: 'noop', error: `briefing: unknown command /${msg.name}` });
      return;
    case 'shutdown':
      process.stdout.write(JSON.stringify({ type: 'shutdown_ack' }) + '\n', () => process.exit(0));
      return;
    default:
      log(`ignoring frame type ${JSON.stringify(msg.type)}`);
  }
}

process.stdout.on('error', () => process.exit(0));
emit({ type: 'hello', protocol_version: PROTOCOL_VERSION, name: NAME, version: VERSION, capabilities: ['commands'] });
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  if (!line.trim()) return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch (err) {
    log(`ignoring invalid frame: ${err.message}`);
    return;
  }
  if (msg && typeof msg === 'object') onFrame(msg);
});
rl.on('close', () => process.exit(0));
