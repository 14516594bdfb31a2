/** Packs `zut-host` (the bundled CLI and the SDK) into `outDir` (default: the repository root); the tarball's path. */
export function packCli(o?: { outDir?: string }): Promise<string>;
