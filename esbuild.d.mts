import type { BuildOptions } from 'esbuild';
/** The esbuild options of every entry (extension + CLI for Node, the panel script for the browser). */
export function buildOptions(o?: { production?: boolean; outdir?: string }): BuildOptions[];
/** Empties `outdir` (default dist/), then builds every entry into it. */
export function build(o?: { production?: boolean; outdir?: string }): Promise<void>;
