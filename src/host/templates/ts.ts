/**
 * TypeScript with the SDK, no build step: `main.js` is JavaScript type-checked by VS Code (`// @ts-check`, JSDoc,
 * `jsconfig.json`) against the SDK's generated declarations (`sdk/*.d.ts`), so it runs on Node 20 as written and
 * a save restarts it at once. (Node 20 cannot run `.ts` files; see the README, "Writing an extension".)
 */
import type { Template } from './common';

export const tsTemplate: Template = {
  exec: './main.js',
  language: 'typescript',
  main: 'main.js',
  files: ({ name, command, tool }) => [
    { path: 'package.json', content: JSON.stringify({ name, private: true, type: 'module' }, null, 2) + '\n' },
    {
      path: 'jsconfig.json',
      content:
        JSON.stringify(
          {
            // "dom" for setTimeout, console and AbortSignal; for Node's APIs add @types/node (npm i -D @types/node).
            compilerOptions: { checkJs: true, strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'] },
            include: ['*.js'],
          },
          null,
          2,
        ) + '\n',
    },
    {
      path: 'main.js',
      executable: true,
      content: `#!/usr/bin/env node
// @ts-check
// ${name}: a zut extension written with the zut TypeScript SDK (./sdk; its types: sdk/index.d.ts).
// This is JavaScript that VS Code type-checks like TypeScript (// @ts-check + JSDoc): it runs on Node 20+ as is,
// with no build step, and saving it restarts the extension. stdout carries protocol frames only: log with ext.log.
import { createExtension } from './sdk/index.js';

const ext = createExtension({ name: ${JSON.stringify(name)}, version: '0.1.0' });

ext.command(${JSON.stringify(command)}, 'Say hello (try: /${command} Ada)', (args) => {
  return { display: \`Hello from ${name}: \${args || 'world'}\` };
});

ext.tool(
  {
    name: ${JSON.stringify(tool)},
    description: 'Greet someone by name',
    inputSchema: { type: 'object', properties: { who: { type: 'string', description: 'Who to greet' } }, required: ['who'] },
  },
  /** @param {{ who?: unknown }} args */
  (args) => {
    if (typeof args.who !== 'string' || args.who.trim() === '') return { text: 'who is required (a non-empty string)', isError: true };
    return \`Hello, \${args.who}!\`;
  },
);

await ext.start();
`,
    },
  ],
};
