/** Variables an outer `npm run` exports for its scripts; none of them belongs to a nested npm. */
export const NPM_LIFECYCLE_VAR: RegExp;
/** `base` without what an outer npm script leaked, `prependPath` first on PATH, `extra` merged last. */
export function cleanNpmEnv(o?: { base?: NodeJS.ProcessEnv; prependPath?: string[]; extra?: Record<string, string> }): Record<string, string>;
