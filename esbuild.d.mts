import type { BuildOptions } from 'esbuild';
/** Modules dist/extension.js loads through the build's stand-in, each from its own bundle. */
export const LAZY_STAND_INS: { module: string; bundle: string; exports: string[] }[];
/** The esbuild options of every entry (extension + CLI for Node, the panel script for the browser). */
export function buildOptions(o?: { production?: boolean; outdir?: string }): BuildOptions[];
/** Empties `outdir` (default dist/), then builds every entry into it. */
export function build(o?: { production?: boolean; outdir?: string }): Promise<void>;
