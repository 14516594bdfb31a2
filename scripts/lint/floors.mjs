// The house's floors as lint (ARCHITECTURE.md): which folder may import which, and no import cycles.
// `floors` is eslint config (no-restricted-imports per layer and per host room); `house` is a local plugin whose
// rule `no-cycle` reports an import that closes a cycle among the files under `root` (type-only imports count).
import fs from 'node:fs';
import path from 'node:path';

const rx = (names) => `^\\.\\.?/(.*/)?(${names.join('|')})(/|$)`;
const escape = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const noVscode = { name: 'vscode', message: 'This layer is VS Code-free: map in src/vscode instead.' };
const rule = (patterns, paths = [noVscode]) => ({ 'no-restricted-imports': ['error', { paths, patterns }] });
const upward = (names, what) => ({ regex: rx(names), message: `${what} (ARCHITECTURE.md: nothing imports upward).` });

/** Host rooms, bottom to top, and what each may not import (the rooms above it). */
const HOST_ABOVE = {
  disk: ['process', 'protocols', 'connection', 'extensions', 'calls', 'chat', 'authoring', 'api', 'manager'],
  process: ['protocols', 'connection', 'extensions', 'calls', 'chat', 'authoring', 'api', 'manager'],
  protocols: ['process', 'connection', 'extensions', 'calls', 'chat', 'authoring', 'api', 'manager'],
  connection: ['extensions', 'calls', 'chat', 'authoring', 'api', 'manager'],
  extensions: ['calls', 'chat', 'authoring', 'api', 'manager'],
  calls: ['chat', 'authoring', 'api', 'manager'],
  authoring: ['process', 'protocols', 'connection', 'extensions', 'calls', 'chat', 'api', 'manager'],
  chat: ['manager', 'authoring'],
};
const OUTSIDE_HOST = ['mcp', 'ui-model', 'vscode', 'cli', 'extension', 'hooks', 'agentSetup', 'runtime'];

/**
 * The per-tool-call client: dist/hook.js, which an agent runs for every tool call, is src/hook.ts and the files it
 * reaches, exactly LIGHT_HOOK_FILES and LIGHT_LEAVES (floors.test.ts checks both lists against the imports). These
 * import only Node's built-ins (`node:`), each other and the leaves; the leaves, files of lower floors, only Node's
 * built-ins. No zod, no host room, no Manager: they would load on every tool call. The answering side (server,
 * answer, …) shares src/hooks and may import the host.
 */
export const LIGHT_HOOK_FILES = [
  'src/hook.ts',
  'src/hooks/brokenPipe.ts',
  'src/hooks/client.ts',
  'src/hooks/dialects/claude.ts',
  'src/hooks/dialects/cline.ts',
  'src/hooks/dialects/codex.ts',
  'src/hooks/dialects/copilotCli.ts',
  'src/hooks/dialects/cursor.ts',
  'src/hooks/dialects/gemini.ts',
  'src/hooks/dialects/index.ts',
  'src/hooks/dialects/opencode.ts',
  'src/hooks/dialects/qwen.ts',
  'src/hooks/dialects/types.ts',
  'src/hooks/dialects/vscodeAgent.ts',
  'src/hooks/failure.ts',
  'src/hooks/names.ts',
  'src/hooks/projectFolder.ts',
  'src/hooks/rendezvous.ts',
  'src/hooks/stdin.ts',
  'src/hooks/warmHost.ts',
];
export const LIGHT_LEAVES = ['src/host/disk/paths.ts', 'src/host/terminalText.ts', 'src/protocol/json.ts', 'src/protocol/limits.ts'];

/** What the webview's script (media/, a browser bundle) may import: the two VS Code-free modules it shares. */
export const MEDIA_IMPORTS = ['src/ui-model/panelKeys.ts', 'src/ui-model/panelRender.ts'];

/** A rule for the files in `dir` (relative to the root): any import but `node:` built-ins and `allowed` is refused. */
function only(dir, files, allowed, { node, message }) {
  const specs = allowed.map((f) => {
    const rel = path.posix.relative(dir, f.replace(/\.ts$/, ''));
    return rel.startsWith('.') ? rel : `./${rel}`;
  });
  // A folder's index.ts is imported by the folder's name too.
  specs.push(...specs.filter((s) => s.endsWith('/index')).map((s) => s.slice(0, -'/index'.length)));
  const alternatives = [...(node ? ['node:'] : []), ...specs.map((t) => `${escape(t)}$`)];
  const regex = alternatives.length > 0 ? `^(?!${alternatives.join('|')})` : '';
  return { files, rules: { 'no-restricted-imports': ['error', { paths: [], patterns: [{ regex, message }] }] } };
}

/** The light-client rule, one entry per folder (an import is spelled from its file's folder); the leaves: Node only. */
const lightHook = () => {
  const message = 'On the light hook path (dist/hook.js, run for every tool call): import only node: built-ins, and in src/hook.ts and src/hooks the files of LIGHT_HOOK_FILES and LIGHT_LEAVES (scripts/lint/floors.mjs; ARCHITECTURE.md).';
  const dirs = [...new Set(LIGHT_HOOK_FILES.map((f) => path.posix.dirname(f)))];
  return [
    ...dirs.map((dir) => only(dir, LIGHT_HOOK_FILES.filter((f) => path.posix.dirname(f) === dir), [...LIGHT_HOOK_FILES, ...LIGHT_LEAVES], { node: true, message })),
    only('.', LIGHT_LEAVES, [], { node: true, message }),
  ];
};

export const floors = [
  {
    files: ['src/protocol/**/*.ts'],
    rules: rule([{ regex: '^\\.\\./', message: 'src/protocol imports nothing of ours (ARCHITECTURE.md).' }]),
  },
  {
    // The vocabulary at the foot of the host: every file at the host's root except the façade (api.ts, manager.ts) —
    // types, events, hostUi, editorToolPort, markdown, and any file added there later — imports no room.
    files: ['src/host/*.ts'],
    ignores: ['src/host/api.ts', 'src/host/manager.ts'],
    rules: rule([
      { regex: '^\\./[^/]+/', message: 'The host vocabulary (the files at src/host\'s root but api and manager) imports no room.' },
      upward(['api', 'manager'], 'The host vocabulary does not import the façade'),
      upward(OUTSIDE_HOST, 'src/host never imports runtime, mcp, hooks, agentSetup, ui-model, vscode or cli'),
    ]),
  },
  {
    // The roles (api.ts, types only) sit below chat, which takes them; their implementation (manager.ts) above it.
    files: ['src/host/api.ts'],
    rules: rule([
      upward(['chat', 'authoring', 'manager'], 'src/host/api.ts (the roles) is below chat, authoring and manager'),
      upward(OUTSIDE_HOST, 'src/host never imports runtime, mcp, hooks, agentSetup, ui-model, vscode or cli'),
    ]),
  },
  {
    files: ['src/host/manager.ts'],
    rules: rule([upward(OUTSIDE_HOST, 'src/host never imports runtime, mcp, hooks, agentSetup, ui-model, vscode or cli')]),
  },
  {
    // dist/main.js, the entry that loads the extension's bundle through a code cache: Node and the limits only (the
    // extension is loaded at run time, never imported).
    files: ['src/main.ts'],
    rules: rule([upward(['host', ...OUTSIDE_HOST], 'src/main.ts (the code-cache loader) imports only src/protocol')]),
  },
  ...Object.entries(HOST_ABOVE).map(([room, above]) => ({
    files: [`src/host/${room}/**/*.ts`],
    rules: rule([
      upward(above, `src/host/${room} is below ${above.join(', ')}`),
      upward(OUTSIDE_HOST, 'src/host never imports runtime, mcp, hooks, agentSetup, ui-model, vscode or cli'),
    ]),
  })),
  {
    // The runtime under every shell (the recipe, the change loop, the lifecycle; floor 6): over the Manager, beside the
    // hooks (neither imports the other), below mcp (`zut-host mcp` runs on it), ui-model, vscode and cli.
    files: ['src/runtime/**/*.ts'],
    rules: rule([upward(['hooks', 'mcp', 'agentSetup', 'ui-model', 'vscode', 'cli', 'extension'], 'src/runtime is below mcp, agentSetup, ui-model, vscode and cli, beside hooks')]),
  },
  {
    // Agent hooks (zut-host hook; floor 6): over the host, below mcp and agentSetup (which import its names and its
    // local socket), ui-model, the CLI and the VS Code adapters. Its light files have a rule of their own (below).
    files: ['src/hooks/**/*.ts'],
    rules: rule([upward(['mcp', 'agentSetup', 'runtime', 'ui-model', 'vscode', 'cli', 'extension'], 'src/hooks is below mcp, agentSetup, ui-model, vscode and cli, beside runtime')]),
  },
  // Floor 7: mcp, agentSetup and ui-model, over the hooks and the host, below the CLI and the VS Code adapters; none
  // imports another.
  {
    files: ['src/mcp/**/*.ts'],
    rules: rule([upward(['agentSetup', 'ui-model', 'vscode', 'cli', 'extension'], 'src/mcp is below vscode and cli, and imports neither agentSetup nor ui-model (the same floor)')]),
  },
  {
    // Agent set-up (the stable launcher, MCP client snippets, the hook file installer): over the hooks' names.
    files: ['src/agentSetup/**/*.ts'],
    rules: rule([upward(['mcp', 'runtime', 'ui-model', 'vscode', 'cli', 'extension'], 'src/agentSetup is below vscode and cli, imports neither mcp nor ui-model (the same floor), and needs no runtime')]),
  },
  {
    files: ['src/ui-model/**/*.ts'],
    rules: rule([upward(['mcp', 'agentSetup', 'hooks', 'runtime', 'vscode', 'cli', 'extension'], 'src/ui-model is below vscode and cli, imports neither mcp nor agentSetup (the same floor), and has no use for the hooks or the runtime')]),
  },
  {
    files: ['src/cli/**/*.ts', 'src/cli.ts'],
    rules: rule([upward(['vscode', 'extension'], 'The CLI never imports the VS Code adapters')], [
      { name: 'vscode', message: 'The CLI runs without VS Code.' },
    ]),
  },
  // After the floors above, so that for these files this rule is the one that holds (it is stricter than each).
  ...lightHook(),
  only('media', ['media/**/*.ts'], MEDIA_IMPORTS, {
    node: false,
    message: "The webview's script (media/) imports only src/ui-model/panelKeys and panelRender (scripts/lint/floors.mjs MEDIA_IMPORTS): it is a browser bundle.",
  }),
  { files: ['src/**/*.ts'], plugins: { house: { rules: { 'no-cycle': noCycle() } } }, rules: { 'house/no-cycle': 'error' } },
];

// ------------------------------------------------------------------ no-cycle

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function resolve(from, spec) {
  const base = path.resolve(path.dirname(from), spec);
  for (const c of [base, `${base}.ts`, path.join(base, 'index.ts')]) {
    if (c.endsWith('.ts') && fs.existsSync(c)) return c;
  }
  return undefined;
}

function tsFiles(dir, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) tsFiles(p, out);
    else if (p.endsWith('.ts') && !p.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** The strongly connected components (of more than one file) of the import graph under `root`. */
function cycles(root) {
  const graph = new Map();
  for (const f of tsFiles(root)) {
    const text = fs.readFileSync(f, 'utf8');
    const to = new Set();
    for (const m of text.matchAll(IMPORT)) {
      const t = resolve(f, m[1] ?? m[2]);
      if (t) to.add(t);
    }
    graph.set(f, to);
  }
  const index = new Map(), low = new Map(), stack = [], on = new Set(), comp = new Map();
  let i = 0;
  const visit = (v) => {
    index.set(v, i); low.set(v, i++); stack.push(v); on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const members = [];
      let w;
      do { w = stack.pop(); on.delete(w); members.push(w); } while (w !== v);
      if (members.length > 1) for (const m of members) comp.set(m, members);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return comp;
}

function noCycle() {
  let cache; // { root, at, comp }: the graph of one lint run (recomputed after a second, for editors)
  return {
    meta: { type: 'problem', schema: [{ type: 'object', properties: { root: { type: 'string' } }, additionalProperties: false }] },
    create(context) {
      const root = path.resolve(context.cwd, context.options[0]?.root ?? 'src');
      if (!cache || cache.root !== root || Date.now() - cache.at > 1000) cache = { root, at: Date.now(), comp: cycles(root) };
      const file = path.resolve(context.filename);
      const members = cache.comp.get(file);
      if (!members) return {};
      const check = (node, spec) => {
        const t = typeof spec === 'string' && spec.startsWith('.') ? resolve(file, spec) : undefined;
        if (t && members.includes(t)) {
          const names = members.map((m) => path.relative(root, m)).sort().join(', ');
          context.report({ node, message: `Import cycle: ${path.relative(root, t)} is in a cycle with this file (${names}).` });
        }
      };
      return {
        ImportDeclaration: (n) => check(n, n.source.value),
        ExportNamedDeclaration: (n) => n.source && check(n, n.source.value),
        ExportAllDeclaration: (n) => check(n, n.source.value),
        ImportExpression: (n) => n.source.type === 'Literal' && check(n, n.source.value),
      };
    },
  };
}
