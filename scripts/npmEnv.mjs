// The environment for an npm/npx (or any tool that runs npm) started from inside an npm script.
//
// `npm run X` exports its whole resolved config as `npm_config_*` (user agent, node version, prefix, cache…), plus
// `npm_lifecycle_*`, `npm_package_*`, `npm_execpath`, `npm_node_execpath`, `npm_command`, `INIT_CWD`, and prepends
// `node_modules/.bin` and npm's `node-gyp-bin` to PATH. An inner npm reads every `npm_config_*` as its own config,
// so e.g. a Node 24 install inherits `user-agent = "npm/11 node/v20…"` and code-server's postinstall refuses to run.
// The inner npm must see what a fresh shell would: the user's real settings come from their npmrc files, which npm
// reads itself.
import path from 'node:path';

/** Variables an outer `npm run` exports for its scripts; none of them belongs to a nested npm. */
export const NPM_LIFECYCLE_VAR = /^(npm_config_|npm_lifecycle_|npm_package_|npm_execpath$|npm_node_execpath$|npm_command$|INIT_CWD$|NODE$|COLOR$|EDITOR$)/i;

/** PATH entries npm prepends for a script: `<dir>/node_modules/.bin` of every ancestor, and npm's node-gyp-bin. */
function addedByNpm(entry) {
  const parts = entry.split(/[\\/]+/).filter(Boolean);
  const last = parts.at(-1);
  return (last === '.bin' && parts.at(-2) === 'node_modules') || last === 'node-gyp-bin';
}

/**
 * `base` (default process.env) without what an outer npm script leaked, with `prependPath` directories first on PATH.
 * `extra` is merged last (e.g. `npm_config_nodedir` on purpose).
 * @param {{ base?: NodeJS.ProcessEnv, prependPath?: string[], extra?: Record<string, string> }} [o]
 * @returns {Record<string, string>}
 */
export function cleanNpmEnv({ base = process.env, prependPath = [], extra = {} } = {}) {
  const env = {};
  let pathKey = 'PATH';
  for (const [k, v] of Object.entries(base)) {
    if (v === undefined || NPM_LIFECYCLE_VAR.test(k)) continue;
    if (k.toUpperCase() === 'PATH') { pathKey = k; continue; }
    env[k] = v;
  }
  const inherited = (base[pathKey] ?? '').split(path.delimiter).filter((p) => p && !addedByNpm(p));
  env[pathKey] = [...prependPath, ...inherited.filter((p) => !prependPath.includes(p))].join(path.delimiter);
  return { ...env, ...extra };
}
