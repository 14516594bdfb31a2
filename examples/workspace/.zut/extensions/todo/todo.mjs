#!/usr/bin/env node
// todo: a zut extension (protocol v2) with an interactive panel. State lives in <data_dir>/todos.json
// (data_dir from hello_ack), created on the first change; a missing or corrupt file starts from a
// built-in sample list. Node standard library only; stdout carries frames only.
//
// /todo         -> command_response action "open_panel" (panel id "todo-main")
// /todo-pop     -> a spontaneous open_panel frame, then command_response action "noop"
// /todo-add <t> -> adds an item, action "display"
// tool todo_list -> the list as text
// panel keys: up/down (k/j) move · x/enter toggle · d/delete delete · a add (type, backspace, enter saves,
//             esc cancels) · esc closes
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const NAME = 'todo';
const VERSION = '1.0.0';
const PROTOCOL_VERSION = 2;
const PANEL_ID = 'todo-main';
const FOOTER = '↑/↓ move · x/enter toggle · d delete · a add · esc close';
const ADD_FOOTER = 'type the todo · enter save · backspace erase · esc cancel';
const SAMPLE = [
  { text: 'Read the zut extension spec', done: true },
  { text: 'Try the todo panel keys', done: false },
  { text: 'Ship the VS Code host', done: false },
];

const log = (msg) => process.stderr.write(`[todo] ${msg}\n`);
const emit = (frame) => process.stdout.write(JSON.stringify(frame) + '\n');

// ------------------------------------------------------------------ state

let file = join(process.cwd(), 'todos.json');
let todos = SAMPLE.map((t) => ({ ...t }));
/** Panel state: open, selected row, and the draft while adding (null when not adding). */
const panel = { open: false, selected: 0, draft: null };

function load() {
  let raw;
  try {
    raw = readFileSync(file, 'utf8');
  } catch {
    log(`no ${file} yet; starting from the sample list`);
    return;
  }
  try {
    const data = JSON.parse(raw);
    const items = Array.isArray(data) ? data : data?.todos;
    if (!Array.isArray(items)) throw new Error('expected {"todos": [...]}');
    todos = items
      .filter((t) => t && typeof t.text === 'string')
      .map((t) => ({ text: t.text, done: t.done === true }));
  } catch (err) {
    log(`ignoring corrupt ${file} (${err.message}); starting from the sample list`);
  }
}

function save() {
  try {
    const tmp = `${file}.tmp`;
    writeFileSync(tmp, JSON.stringify({ todos }, null, 2) + '\n');
    renameSync(tmp, file); // atomic replace: a crash never leaves half a file
  } catch (err) {
    log(`could not save ${file}: ${err.message}`);
  }
}

function addTodo(text) {
  todos.push({ text, done: false });
  save();
}

// ------------------------------------------------------------------ panel

function view() {
  const done = todos.filter((t) => t.done).length;
  const adding = panel.draft !== null;
  const lines = todos.map((t, i) => `${!adding && i === panel.selected ? '▸ ' : '  '}${t.done ? '✓' : '□'} ${t.text}`);
  if (adding) lines.push(`▸ + ${panel.draft}_`);
  else if (todos.length === 0) lines.push('  (no todos: press a to add one)');
  return { title: `Todos (${done}/${todos.length} done)`, lines, footer: adding ? ADD_FOOTER : FOOTER };
}

function panelSpec() {
  return { id: PANEL_ID, ...view() };
}

function render() {
  if (panel.open) emit({ type: 'panel_render', panel_id: PANEL_ID, ...view() });
}

function openPanel() {
  panel.open = true;
  panel.draft = null;
  panel.selected = Math.min(panel.selected, Math.max(0, todos.length - 1));
  return panelSpec();
}

function closePanel() {
  panel.open = false;
  panel.draft = null;
  emit({ type: 'panel_close', panel_id: PANEL_ID });
}

function onAddKey(key, text) {
  if (key === 'rune') panel.draft += text ?? '';
  else if (key === 'backspace') panel.draft = [...panel.draft].slice(0, -1).join('');
  else if (key === 'enter') {
    const entry = panel.draft.trim();
    panel.draft = null;
    if (entry) {
      addTodo(entry);
      panel.selected = todos.length - 1;
    }
  } else if (key === 'esc') panel.draft = null;
  else return; // other keys do nothing while typing
  render();
}

function onKey(key, text) {
  if (panel.draft !== null) return onAddKey(key, text);
  const rune = key === 'rune' ? text : null;
  const last = todos.length - 1;
  if (key === 'up' || rune === 'k') panel.selected = Math.max(0, panel.selected - 1);
  else if (key === 'down' || rune === 'j') panel.selected = Math.max(0, Math.min(last, panel.selected + 1));
  else if (key === 'home') panel.selected = 0;
  else if (key === 'end') panel.selected = Math.max(0, last);
  else if (key === 'enter' || rune === 'x' || rune === ' ') {
    if (last < 0) return;
    todos[panel.selected].done = !todos[panel.selected].done;
    save();
  } else if (key === 'delete' || rune === 'd') {
    if (last < 0) return;
    todos.splice(panel.selected, 1);
    panel.selected = Math.max(0, Math.min(panel.selected, todos.length - 1));
    save();
  } else if (rune === 'a') panel.draft = '';
  else if (key === 'esc' || rune === 'q') return closePanel();
  else return; // unhandled key: nothing changed, no redraw
  render();
}

// ------------------------------------------------------------------ protocol loop

function listText() {
  if (todos.length === 0) return 'No todos.';
  const done = todos.filter((t) => t.done).length;
  const rows = todos.map((t, i) => `${i + 1}. [${t.done ? 'x' : ' '}] ${t.text}`);
  return `${done}/${todos.length} done\n${rows.join('\n')}`;
}

function onCommand(msg) {
  const respond = (fields) => emit({ type: 'command_response', id: msg.id, ...fields });
  const args = String(msg.args ?? '').trim();
  switch (String(msg.name).toLowerCase()) {
    case 'todo':
      return respond({ action: 'open_panel', open_panel: openPanel() });
    case 'todo-pop':
      // The spontaneous form: the panel opens from a one-way frame, the command itself is a noop.
      emit({ type: 'open_panel', panel: openPanel() });
      return respond({ action: 'noop' });
    case 'todo-add':
      if (!args) return respond({ action: 'noop', error: 'usage: /todo-add <text>' });
      addTodo(args);
      render();
      return respond({ action: 'display', display: `added "${args}" (${todos.length} todos)` });
    default:
      return respond({ action: 'noop', error: `todo: unknown command /${msg.name}` });
  }
}

let acked = false;

function onFrame(msg) {
  switch (msg.type) {
    case 'hello_ack': {
      if (msg.protocol_version !== PROTOCOL_VERSION) {
        log(`unsupported protocol version ${msg.protocol_version}; exiting`);
        process.exit(1);
      }
      acked = true;
      const dir = msg.data_dir || msg.extension_dir || process.cwd();
      try {
        mkdirSync(dir, { recursive: true });
      } catch (err) {
        log(`cannot create ${dir}: ${err.message}`);
      }
      file = join(dir, 'todos.json');
      load();
      emit({ type: 'register_command', name: 'todo', description: 'open the todo panel' });
      emit({ type: 'register_command', name: 'todo-pop', description: 'pop the todo panel open (spontaneous open_panel)' });
      emit({ type: 'register_command', name: 'todo-add', description: 'add a todo: /todo-add <text>' });
      emit({
        type: 'register_tool',
        name: 'todo_list',
        description: "List the user's todos with their done state.",
        schema: { type: 'object', properties: {} },
      });
      emit({ type: 'ready' });
      return;
    }
    case 'command_invoked':
      if (acked) onCommand(msg);
      return;
    case 'tool_call':
      if (msg.name === 'todo_list') emit({ type: 'tool_result', id: msg.id, content: [{ type: 'text', text: listText() }] });
      else emit({ type: 'tool_result', id: msg.id, content: [{ type: 'text', text: `todo: unknown tool "${msg.name}"` }], is_error: true });
      return;
    case 'panel_key':
      if (msg.panel_id === PANEL_ID && panel.open) onKey(msg.key, msg.text);
      return;
    case 'panel_close':
      if (msg.panel_id === PANEL_ID) {
        panel.open = false;
        panel.draft = null;
      }
      return;
    case 'panel_resize':
      return; // the lines are short; nothing to re-layout
    case 'shutdown':
      process.stdout.write(JSON.stringify({ type: 'shutdown_ack' }) + '\n', () => process.exit(0));
      return;
    default:
      log(`ignoring frame type ${JSON.stringify(msg.type)}`);
  }
}

process.stdout.on('error', () => process.exit(0));
emit({ type: 'hello', protocol_version: PROTOCOL_VERSION, name: NAME, version: VERSION, capabilities: ['commands', 'tools', 'panels'] });
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
