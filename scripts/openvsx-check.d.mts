/** The problems Open VSX (ovsx's client checks and its registry's rules) would report for this package.json. */
export function manifestProblems(manifest: Record<string, unknown>): string[];
/** The problems ovsx and the Open VSX registry would report for the .vsix at `vsix` (empty: accepted). */
export function openVsxProblems(vsix: string): Promise<string[]>;
/** The text of `file` (its path in the zip, e.g. `extension/readme.md`) in the .vsix at `vsix`. */
export function vsixText(vsix: string, file: string): Promise<string>;
