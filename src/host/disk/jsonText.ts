/**
 * Edits to a JSON document as text, so every byte of it that the edit does not concern stays as the user wrote it
 * (their indentation, key order, spacing, line ends): append a member to an object or an item to an array, replace a
 * value, remove a member or an item. An append followed by the removal of what it added gives the original text back.
 * The text must be strict JSON (callers check it with JSON.parse first); a key given twice is looked up as JSON.parse
 * sees it (the last one). Values we write are formatted like their neighbours (the document's indent unit, or on one
 * line inside a one-line container). VS Code-free.
 */

/** A value in the text: where it starts and ends, and its members or items. */
export interface JsonNode {
  kind: 'object' | 'array' | 'scalar';
  start: number;
  /** One past its last character. */
  end: number;
  /** An object's members in order (`start` is the key's opening quote). */
  members: { key: string; start: number; value: JsonNode }[];
  /** An array's items in order. */
  items: JsonNode[];
}

const WS = new Set([' ', '\t', '\n', '\r']);

/** The tree of strict JSON `text` (positions only). */
export function parseJsonText(text: string): JsonNode {
  let i = 0;
  const ws = () => {
    while (i < text.length && WS.has(text[i]!)) i++;
  };
  const str = (): string => {
    const start = i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): JsonNode => {
    ws();
    const start = i;
    const node: JsonNode = { kind: 'scalar', start, end: start, members: [], items: [] };
    const c = text[i];
    if (c === '{' || c === '[') {
      node.kind = c === '{' ? 'object' : 'array';
      i++;
      ws();
      while (text[i] !== (c === '{' ? '}' : ']')) {
        if (c === '{') {
          const at = i;
          const key = str();
          ws();
          i++; // ':'
          node.members.push({ key, start: at, value: value() });
        } else node.items.push(value());
        ws();
        if (text[i] === ',') i++;
        ws();
      }
      i++;
    } else if (c === '"') str();
    else while (i < text.length && !WS.has(text[i]!) && !',]}'.includes(text[i]!)) i++;
    node.end = i;
    return node;
  };
  return value();
}

/** The member `key` of an object node (the last one of that name, as JSON.parse reads it). */
export function memberOf(node: JsonNode | undefined, key: string): JsonNode | undefined {
  return node?.kind === 'object' ? node.members[lastIndexOf(node, key)]?.value : undefined;
}

function lastIndexOf(node: JsonNode, key: string): number {
  for (let i = node.members.length - 1; i >= 0; i--) if (node.members[i]!.key === key) return i;
  return -1;
}

/** The whitespace at the start of the line holding `at`. */
function lineIndent(text: string, at: number): string {
  const from = text.lastIndexOf('\n', at - 1) + 1;
  return /^[ \t]*/.exec(text.slice(from))![0];
}

/** The document's indent unit (its first indented line's), else two spaces. */
function indentUnit(text: string): string {
  return /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
}

const eolOf = (text: string) => (text.includes('\r\n') ? '\r\n' : '\n');

/** `value` as JSON text starting at a line indented by `indent` (or on one line). */
function format(text: string, value: unknown, indent: string, oneLine: boolean): string {
  if (oneLine) return JSON.stringify(value);
  return JSON.stringify(value, null, indentUnit(text)).replaceAll('\n', eolOf(text) + indent);
}

const splice = (text: string, from: number, to: number, put: string) => text.slice(0, from) + put + text.slice(to);

/** Appends to a container: `piece` (a `"key": value` member or an item) after its last child, or into it when empty. */
function appendTo(text: string, node: JsonNode, children: { start: number; end: number }[], piece: (indent: string, oneLine: boolean) => string): string {
  const close = node.end - 1;
  if (children.length === 0) {
    const oneLine = !text.trimEnd().includes('\n'); // a document on one line stays on one line
    if (oneLine) return splice(text, node.start + 1, close, piece('', true));
    const outer = lineIndent(text, node.start);
    const inner = outer + indentUnit(text);
    return splice(text, node.start + 1, close, eolOf(text) + inner + piece(inner, false) + eolOf(text) + outer);
  }
  const last = children[children.length - 1]!;
  const before = children.length > 1 ? children[children.length - 2]! : undefined;
  // The separator the user put between children (after the comma), or before the first one.
  const sep = before ? text.slice(before.end, last.start).replace(/^\s*,/, '') : text.slice(node.start + 1, last.start);
  const oneLine = !sep.includes('\n');
  const indent = oneLine ? '' : sep.slice(sep.lastIndexOf('\n') + 1);
  return splice(text, last.end, last.end, `,${sep}${piece(indent, oneLine)}`);
}

/** Appends member `key: value` to the object `node`. */
export function appendMember(text: string, node: JsonNode, key: string, value: unknown): string {
  const children = node.members.map((m) => ({ start: m.start, end: m.value.end }));
  return appendTo(text, node, children, (indent, oneLine) => `${JSON.stringify(key)}:${oneLine && !text.includes('": ') ? '' : ' '}${format(text, value, indent, oneLine)}`);
}

/** Appends `value` to the array `node`. */
export function appendItem(text: string, node: JsonNode, value: unknown): string {
  return appendTo(text, node, node.items, (indent, oneLine) => format(text, value, indent, oneLine));
}

/** Replaces the value `node` with `value`, formatted at its place. */
export function replaceValue(text: string, node: JsonNode, value: unknown): string {
  const oneLine = !text.slice(node.start, node.end).includes('\n');
  return splice(text, node.start, node.end, format(text, value, lineIndent(text, node.start), oneLine));
}

/** Removes child `i` of a container (its separator with it): the inverse of an append. */
function removeChild(text: string, node: JsonNode, children: { start: number; end: number }[], i: number): string {
  if (children.length === 1) return splice(text, node.start + 1, node.end - 1, '');
  if (i === children.length - 1) return splice(text, children[i - 1]!.end, children[i]!.end, '');
  return splice(text, children[i]!.start, children[i + 1]!.start, '');
}

/** Removes item `i` of the array `node`. */
export function removeItem(text: string, node: JsonNode, i: number): string {
  return removeChild(text, node, node.items, i);
}

/** Removes member `key` of the object `node` (the last of that name, the one JSON.parse reads). */
export function removeMember(text: string, node: JsonNode, key: string): string {
  const i = lastIndexOf(node, key);
  if (i < 0) return text;
  return removeChild(text, node, node.members.map((m) => ({ start: m.start, end: m.value.end })), i);
}
