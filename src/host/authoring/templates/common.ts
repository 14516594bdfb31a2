/**
 * What every "New Extension…" template gets: the extension's name, its one command and its one tool. Each
 * language's template (ts.ts, python.ts, go.ts, sh.ts) behaves the same way, so one test checks them all:
 *   /<command> [text]      → display "Hello from <name>: <text or world>"
 *   <tool> {"who":"Ada"}   → "Hello, Ada!" (is_error "who is required (a non-empty string)" without one)
 */
export interface TemplateVars {
  name: string;
  command: string;
  tool: string;
}

/** One file of a template: path relative to the extension directory. */
export interface TemplateFile {
  path: string;
  content: string;
  executable?: boolean;
}

export interface Template {
  /** The manifest's `exec`, `args` (when the program reads a source file the watcher should follow) and `language`. */
  exec: string;
  args?: string[];
  language: string;
  /** The file to open in the editor. */
  main: string;
  files(v: TemplateVars): TemplateFile[];
}

/** The greeting tool's JSON Schema, as JSON text (the same in every language). */
export const TOOL_SCHEMA_JSON =
  '{"type":"object","properties":{"who":{"type":"string","description":"Who to greet"}},"required":["who"]}';
