/**
 * TypeScript with the SDK, no build step and nothing to install: `main.ts` is real TypeScript, typed against the
 * SDK's generated declarations (`sdk/*.d.ts`) and checked by VS Code (`tsconfig.json`). `run.js` (the manifest's
 * `node run.js main.ts`) loads every .ts file through `sdk/sucrase.js` (a TypeScript → JavaScript transform
 * copied with the SDK: types removed, not checked), so it runs on Node 20.6+ in zut-vscode and in the zut
 * terminal host alike, and a type error never stops it. main.ts is an argument file: saving it restarts the
 * extension (src/host/disk/manifestSignature.ts `watchedFiles`). Every file of the extension, sdk/ included, counts
 * in its consent fingerprint (src/host/extensions/fingerprint.ts).
 */
import type { Template } from './common';

/** The loader the manifest runs (`node run.js main.ts`). Plain JavaScript (Node runs it as is), ES module. */
const RUN_JS = `#!/usr/bin/env node
// Runs this zut extension's TypeScript on Node 20.6+ with no build step and nothing to install:
//   node run.js main.ts          (extension.json: "exec": "node", "args": ["run.js", "main.ts"])
// main.ts and the .ts files it imports become JavaScript as Node loads them, through sdk/sucrase.js: types are
// removed, not checked (VS Code checks them, with tsconfig.json), so a type error never stops the extension; a
// syntax error stops it, with its file:line:column in the extension's log. Every line stays where it is in the
// .ts file, so stack traces point at the right line. Whatever Node runs it, the transform is the same (Node
// 22.6+'s own type stripping would reject enums and parameter properties, so it is not used).
import { existsSync, readFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isMainThread } from 'node:worker_threads';
import { transformTypeScript } from './sdk/sucrase.js';

const TS_FILE = /\\.m?ts$/;

/** Module hook: from a .ts file, './x.js' that does not exist but './x.ts' does is './x.ts' (as TypeScript sees it). */
export function resolve(specifier, context, nextResolve) {
  const parent = context.parentURL;
  if (parent && parent.startsWith('file:') && TS_FILE.test(new URL(parent).pathname) && /^\\.\\.?\\/.*\\.js$/.test(specifier)) {
    const ts = new URL(specifier.replace(/\\.js$/, '.ts'), parent);
    if (!existsSync(new URL(specifier, parent)) && existsSync(ts)) return nextResolve(ts.href, context);
  }
  return nextResolve(specifier, context);
}

/** Module hook: a .ts file is the ES module sucrase makes of it. */
export function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !TS_FILE.test(new URL(url).pathname)) return nextLoad(url, context);
  const file = fileURLToPath(url);
  return { format: 'module', source: transformTypeScript(readFileSync(file, 'utf8'), file), shortCircuit: true };
}

// Node 22.15+ runs the hooks in this thread (module.registerHooks); Node 20.6+ in its loader thread, which imports
// this file again (module.register): only the main thread starts the extension.
if (isMainThread) {
  const main = process.argv[2];
  if (!main) {
    console.error('usage: node run.js main.ts');
    process.exit(2);
  }
  if (typeof nodeModule.registerHooks === 'function') nodeModule.registerHooks({ resolve, load });
  else if (typeof nodeModule.register === 'function') nodeModule.register(import.meta.url);
  else {
    console.error('run.js: Node ' + process.version + ' cannot load TypeScript files: use Node 20.6 or later');
    process.exit(1);
  }
  const file = path.resolve(main);
  process.argv.splice(1, 2, file); // main.ts sees process.argv as if Node ran it: [node, main.ts, ...rest]
  try {
    await import(pathToFileURL(file).href);
  } catch (e) {
    // A .ts file that does not parse: where and what (file:line:column), without the transform's own stack.
    if (e && e.code === 'ERR_TS_SYNTAX') {
      console.error('run.js: ' + e.message);
      process.exit(1);
    }
    throw e;
  }
}
`;

/** VS Code's TypeScript checks the extension with this (JSONC: TypeScript reads comments in tsconfig.json). */
const TSCONFIG = `{
  // VS Code checks main.ts (and every .ts file here) against the SDK's types (sdk/*.d.ts) with these settings.
  // run.js only removes types: a type error shows in the editor (and in \`npx -p typescript tsc -p .\`), not at run time.
  "compilerOptions": {
    "strict": true,
    "target": "es2022",
    "module": "nodenext",
    "moduleResolution": "nodenext",
    // "dom" for setTimeout, console and AbortSignal; for Node's APIs add @types/node (npm i -D @types/node).
    "lib": ["es2022", "dom"],
    "noEmit": true,
    // Import your own files as './util.ts' (or './util.js'): run.js loads either.
    "allowImportingTsExtensions": true,
    // Each file is transformed on its own: an import used only as a type says so (\`import type\`).
    "verbatimModuleSyntax": true,
    "skipLibCheck": true
  },
  "include": ["**/*.ts"]
}
`;

export const tsTemplate: Template = {
  exec: 'node',
  // run.js and main.ts are argument files inside the extension: saving either restarts it.
  args: ['run.js', 'main.ts'],
  language: 'typescript',
  main: 'main.ts',
  files: ({ name, command, tool }) => [
    { path: 'package.json', content: JSON.stringify({ name, private: true, type: 'module' }, null, 2) + '\n' },
    { path: 'tsconfig.json', content: TSCONFIG },
    { path: 'run.js', content: RUN_JS, executable: true },
    {
      path: 'main.ts',
      content: `// ${name}: a zut extension in TypeScript, written with the zut SDK (./sdk; its types: sdk/index.d.ts).
// run.js runs it on Node 20.6+ as it is: no build step, nothing to install. VS Code checks its types (tsconfig.json);
// a type error does not stop the extension, a syntax error does (see its log). Saving this file restarts it.
// stdout carries protocol frames only: log with ext.log.
import { createExtension, type CommandReturn, type ToolReturn } from './sdk/index.js';

/** The greeting tool's arguments, as the model sends them (check them: nothing enforces the schema). */
interface GreetArgs {
  who?: unknown;
}

const ext = createExtension({ name: ${JSON.stringify(name)}, version: '0.1.0' });

ext.command(${JSON.stringify(command)}, 'Say hello (try: /${command} Ada)', (args: string): CommandReturn => {
  return { display: \`Hello from ${name}: \${args || 'world'}\` };
});

ext.tool<GreetArgs>(
  {
    name: ${JSON.stringify(tool)},
    description: 'Greet someone by name',
    inputSchema: { type: 'object', properties: { who: { type: 'string', description: 'Who to greet' } }, required: ['who'] },
  },
  (args): ToolReturn => {
    if (typeof args.who !== 'string' || args.who.trim() === '') return { text: 'who is required (a non-empty string)', isError: true };
    return \`Hello, \${args.who}!\`;
  },
);

await ext.start();
`,
    },
  ],
};
