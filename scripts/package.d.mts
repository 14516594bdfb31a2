export const ROOT: string;
/** The most dist/extension.js may weigh in a release (minified) package, in bytes. */
export const BUNDLE_LIMIT_BYTES: number;
export function extensionManifest(): { name: string; version: string; [k: string]: unknown };
/** The files vsce would package from `dir` (default: the repository), .vscodeignore applied. */
export function packagedFiles(dir?: string): string[];
/** What a package must hold: the bundle, and the SDK and TypeScript transform (dist/sdk/…) "New Extension…" copies. */
export const REQUIRED_FILES: string[];
/** Throws unless the files are clean (no source map, REQUIRED_FILES present and, for a release, the bundle within the limit). */
export function checkPackageFiles(o?: { production?: boolean; files?: string[]; bundle?: string }): { files: string[]; bytes: number };
export function buildExtension(o?: { production?: boolean }): void;
export function packageVsix(o?: { out?: string; production?: boolean }): string;
/** The options `vsce package` gets (none that silences a check). */
export const VSCE_PACKAGE_ARGS: string[];
/** `vsce package` in `dir` into `out`: everything it printed; throws with it when vsce fails. */
export function runVscePackage(dir: string, out: string): string;
/** `runVscePackage`, and throws when vsce warned (the .vsix removed); vsce's output. */
export function vscePackageClean(dir: string, out: string): string;
/** The warning lines in vsce's output (its " WARNING " lines, or GitHub Actions' "::warning::"). */
export function vsceWarnings(output: string): string[];
