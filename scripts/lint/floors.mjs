// The house's floors as lint (ARCHITECTURE.md): which folder may import which, and no import cycles.
// `floors` is eslint config (no-restricted-imports per layer and per host room); `house` is a local plugin whose
// rule `no-cycle` reports an import that closes a cycle among the files under `root` (type-only imports count).
import fs from 'node:fs';
import path from 'node:path';

const rx = (names) => `^\\.\\.?/(.*/)?(${names.join('|')})(/|$)`;
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
const OUTSIDE_HOST = ['mcp', 'ui-model', 'vscode', 'cli', 'extension', 'hooks', 'agentSetup'];

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
      upward(OUTSIDE_HOST, 'src/host never imports mcp, hooks, agentSetup, ui-model, vscode or cli'),
    ]),
  },
  {
    // The roles (api.ts, types only) sit below chat, which takes them; their implementation (manager.ts) above it.
    files: ['src/host/api.ts'],
    rules: rule([
      upward(['chat', 'authoring', 'manager'], 'src/host/api.ts (the roles) is below chat, authoring and manager'),
      upward(OUTSIDE_HOST, 'src/host never imports mcp, hooks, agentSetup, ui-model, vscode or cli'),
    ]),
  },
  {
    files: ['src/host/manager.ts'],
    rules: rule([upward(OUTSIDE_HOST, 'src/host never imports mcp, hooks, agentSetup, ui-model, vscode or cli')]),
  },
  {
    // dist/hook.js, the light entry an agent runs for every tool call: the hooks' fast path, never the host, the
    // CLI (loaded at run time when the fast path does not answer) or VS Code.
    files: ['src/hook.ts'],
    rules: rule([upward(['host', ...OUTSIDE_HOST.filter((n) => n !== 'hooks')], 'src/hook.ts (the light hook entry) imports only src/hooks and src/protocol')]),
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
      upward(OUTSIDE_HOST, 'src/host never imports mcp, hooks, agentSetup, ui-model, vscode or cli'),
    ]),
  })),
  {
    files: ['src/mcp/**/*.ts'],
    rules: rule([upward(['ui-model', 'vscode', 'cli', 'extension'], 'src/mcp is below ui-model, vscode and cli')]),
  },
  {
    // Agent hooks (zut-host hook): over the host, below the CLI and the VS Code adapters.
    files: ['src/hooks/**/*.ts'],
    rules: rule([upward(['mcp', 'agentSetup', 'ui-model', 'vscode', 'cli', 'extension'], 'src/hooks is below mcp, agentSetup, ui-model, vscode and cli')]),
  },
  {
    // Agent set-up (the stable launcher, MCP client snippets, the hook file installer): over the hooks' names, below
    // the CLI and the VS Code adapters that run it.
    files: ['src/agentSetup/**/*.ts'],
    rules: rule([upward(['mcp', 'ui-model', 'vscode', 'cli', 'extension'], 'src/agentSetup is below mcp, ui-model, vscode and cli')]),
  },
  {
    files: ['src/ui-model/**/*.ts'],
    rules: rule([upward(['mcp', 'vscode', 'cli', 'extension'], 'src/ui-model is below mcp, vscode and cli')]),
  },
  {
    files: ['src/cli/**/*.ts', 'src/cli.ts'],
    rules: rule([upward(['vscode', 'extension'], 'The CLI never imports the VS Code adapters')], [
      { name: 'vscode', message: 'The CLI runs without VS Code.' },
    ]),
  },
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
