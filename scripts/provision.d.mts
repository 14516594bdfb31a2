export const NODE_MAJOR: string;
export const CODE_SERVER_VERSION: string;
export const BUILD_PACKAGES: string[];
export const BROWSER_PACKAGES: string[];
export const UNIT_TEST_PACKAGES: string[];
export const DEBIAN_PACKAGES: string[];
/** The environment of every npm that provisioning runs: clean of the outer npm's variables, `nodeBinDir` first on PATH. */
export function npmInstallEnv(nodeBinDir?: string, extra?: Record<string, string>): Record<string, string>;
export function toolsDir(): string;
/** The code-server version asked for: `v`, else ZUT_CODE_SERVER_VERSION, else CODE_SERVER_VERSION; throws unless x.y.z. */
export function codeServerVersion(v?: string): string;
/** The provisioned Node `major`'s (default NODE_MAJOR) paths when already installed in the cache (installs nothing), else undefined. */
export function installedNode(major?: string): { node: string; nodeBinDir: string; nodedir: string } | undefined;
export function missingDebianPackages(wanted?: string[]): string[];
/** Installs the missing ones of `wanted` as root with apt-get, else throws with the apt-get line (`aptLine`). */
export function ensureDebianPackages(wanted: string[]): Promise<void>;
export function provision(o?: { browser?: boolean; codeServerVersion?: string }): Promise<{
  tools: string; node: string; nodeBinDir: string; nodedir: string; nodeMajor: string; codeServer: string; codeServerVersion: string;
  vscodeVersion: string | undefined; chromium: string;
}>;
