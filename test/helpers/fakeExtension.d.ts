/** Types of fakeExtension.js (the fake sh extension of the unit and VS Code suites, and Node ones written inline). */
export interface ShExtensionOptions {
  /** Its hello's version (default 1.0.0). */
  version?: string;
  /** A `# comment` line after the shebang: a line a test can edit to change the script's content. */
  comment?: string;
  /** 2 (default): zut's hello with `protocol_version`, registrations at once; 1: zot's v1 hello, after `hello_ack`. */
  protocol?: 1 | 2;
  /** When given: a command `<name>-hi` answering `display` with this text. */
  command?: string;
  /** Extra manifest fields (`version`, `language`, `args`…). */
  manifest?: Record<string, unknown>;
}
export declare function writeShExtension(root: string, name: string, o?: ShExtensionOptions): string;
export interface NodeExtensionOptions {
  /** The program's file name in the folder (default main.js). */
  file?: string;
  /** The manifest's `exec` (default `node`, from PATH; e.g. `process.execPath`). */
  exec?: string;
  /** The program by its absolute path in `args` (default: relative to the folder, where the host runs it). */
  absolute?: boolean;
  /** Arguments after the program's path. */
  args?: string[];
  /** Extra manifest fields (`version`, `description`, `enabled`…); they override the ones above. */
  manifest?: Record<string, unknown>;
}
export declare function writeNodeExtension(root: string, name: string, program: string, o?: NodeExtensionOptions): string;
export interface NodeProgramOptions {
  /** Its hello's version (default 1.0.0). */
  version?: string;
  /** A command registered on `hello_ack` (`{ name, description? }`); then its hello says `commands`. */
  command?: { name: string; description?: string };
  /** Statements handling any other frame `m` (with `emit`). */
  onMessage?: string;
  /** Statements before the hello (e.g. `const fs = require('fs');`). */
  prelude?: string;
}
export declare function nodeProgram(name: string, o?: NodeProgramOptions): string;
