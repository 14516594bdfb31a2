/** Untrusted text made inert for a terminal (stderr, the doctor's report, a consent question's one line). */

/**
 * Makes untrusted text inert for a terminal: C0/C1 controls (ESC included) other than `\n` and `\t`, and bidi
 * overrides, become visible `\xNN` / `\u{NNNN}` escapes; `\r\n` and `\r` become `\n`.
 */
export function sanitizeText(s: string): string {
  return (
    s
      .replace(/\r\n?/g, '\n')
      .replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
      .replace(/[\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u{${c.charCodeAt(0).toString(16)}}`)
  );
}
