#!/usr/bin/env node
// guard: a zut extension (protocol v2) that observes lifecycle events and intercepts three of them.
//   tool_call          -> block when any string in the args contains a danger pattern
//   assistant_message  -> replace_text with secrets (API keys) replaced by "[redacted]"
//   turn_start         -> context: a short project policy for the next model request
// /guard displays what it has done so far. Every intercept is answered synchronously, well within
// the host's 5 s deadline. Node standard library only; stdout carries frames only.
import { createInterface } from 'node:readline';

const NAME = 'guard';
const VERSION = '1.0.0';
const PROTOCOL_VERSION = 2;

/** Substrings that make a tool call refused. Matched case-sensitively against every string value of the args. */
const DANGER_PATTERNS = ['rm -rf', 'rm -fr', 'mkfs', 'git push --force', 'dd if=/dev/zero'];

/** Secrets to scrub from assistant replies. */
const SECRET_PATTERNS = [
  /sk-[A-Za-z0-9_-]{8,}/g, // OpenAI / Anthropic style API keys
  /AKIA[0-9A-Z]{16}/g, // AWS access key ids
  /gh[pousr]_[A-Za-z0-9]{36}/g, // GitHub tokens
];
const REDACTED = '[redacted]';

const POLICY =
  'Project policy (from guard): never run destructive shell commands (rm -rf, mkfs, force pushes); ' +
  'never print credentials or API keys; ask before deleting files.';

const EVENTS = ['session_start', 'turn_start', 'tool_call', 'assistant_message', 'turn_end'];
const INTERCEPTS = ['tool_call', 'turn_start', 'assistant_message'];

const stats = { blocked: 0, redactions: 0, toolCallsChecked: 0, turns: 0, events: 0 };

const log = (msg) => process.stderr.write(`[guard] ${msg}\n`);
const emit = (frame) => process.stdout.write(JSON.stringify(frame) + '\n');

/** Every string value (not key) in a JSON value, depth first. */
function* strings(value) {
  if (typeof value === 'string') yield value;
  else if (Array.isArray(value)) for (const v of value) yield* strings(v);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) yield* strings(v);
}

function dangerIn(args) {
  for (const s of strings(args)) {
    const hit = DANGER_PATTERNS.find((p) => s.includes(p));
    if (hit) return hit;
  }
  return null;
}

function redact(text) {
  let count = 0;
  let out = text;
  for (const re of SECRET_PATTERNS) {
    out = out.replace(re, () => {
      count++;
      return REDACTED;
    });
  }
  return { out, count };
}

/** Decides one intercept; returns the response fields (none = allow unchanged). */
function decide(msg) {
  switch (msg.event) {
    case 'tool_call': {
      stats.toolCallsChecked++;
      const hit = dangerIn(msg.tool_args);
      if (!hit) return {};
      stats.blocked++;
      log(`blocked ${msg.tool_name} (${msg.tool_id ?? '?'}): pattern ${JSON.stringify(hit)}`);
      return { block: true, reason: `refused: matches danger pattern ${JSON.stringify(hit)}` };
    }
    case 'assistant_message': {
      const { out, count } = redact(typeof msg.text === 'string' ? msg.text : '');
      if (count === 0) return {};
      stats.redactions += count;
      log(`redacted ${count} secret(s) in an assistant message`);
      return { replace_text: out };
    }
    case 'turn_start':
      return { context: POLICY };
    default:
      return {};
  }
}

function statsText() {
  return [
    `guard: ${stats.blocked} blocked tool call(s), ${stats.redactions} redaction(s)`,
    `checked ${stats.toolCallsChecked} tool call(s), saw ${stats.turns} turn(s) and ${stats.events} event(s)`,
    `danger patterns: ${DANGER_PATTERNS.join(', ')}`,
  ].join('\n');
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
      emit({ type: 'subscribe', events: EVENTS, intercept: INTERCEPTS });
      emit({ type: 'register_command', name: 'guard', description: 'show what the guard has blocked and redacted' });
      emit({ type: 'ready' });
      return;
    case 'event_intercept': {
      let fields = {};
      try {
        fields = decide(msg);
      } catch (err) {
        log(`intercept failed, allowing: ${err.message}`); // never stall the agent
      }
      emit({ type: 'event_intercept_response', id: msg.id, ...fields });
      return;
    }
    case 'event':
      stats.events++;
      if (msg.event === 'turn_start') stats.turns++;
      return;
    case 'command_invoked':
      if (!acked) return;
      if (String(msg.name).toLowerCase() === 'guard') emit({ type: 'command_response', id: msg.id, action: 'display', display: statsText() });
      else emit({ type: 'command_response', id: msg.id, action: 'noop', error: `guard: unknown command /${msg.name}` });
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
