/** Types of fakeExtension.js (the one fake sh extension of the unit and VS Code suites). */
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
