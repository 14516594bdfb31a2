#!/usr/bin/env node
// @ts-check
// sdk-demo: a zut extension written with the zut TypeScript SDK (./sdk is a copy of packages/sdk's build; its
// types, generated from the host's schemas, are in sdk/*.d.ts). Typed JavaScript: VS Code checks it like
// TypeScript, Node 20 runs it as is. stdout carries frames only; ext.log writes to stderr.
import { createExtension } from './sdk/index.js';

const ext = createExtension({ name: 'sdk-demo', version: '1.0.0' });

// /sdk-hello NAME → display; without a name → noop + error (what zut's Go SDK Errorf sends).
ext.command('sdk-hello', 'Greet someone (usage: /sdk-hello NAME)', (args) => {
  if (!args) return { error: 'usage: /sdk-hello NAME' };
  return { display: `Hello, ${args}! (from the zut SDK)` };
});

// /sdk-count: a panel with a counter; up/down change it, enter closes it and notifies the result.
ext.command('sdk-count', 'A counter panel (up/down, enter to finish)', () => {
  let n = 0;
  const footer = 'up/down change - enter done';
  const panel = ext.openPanel({ id: 'sdk-count', title: 'Counter', lines: ['count: 0'], footer });
  panel.onKey((key) => {
    if (key === 'up' || key === 'down') {
      n += key === 'up' ? 1 : -1;
      panel.render({ lines: [`count: ${n}`] });
    } else if (key === 'enter') {
      panel.close();
      ext.notify(`counted to ${n}`, 'success');
    }
  });
});

// sdk_approve {action}: an interactive tool that asks in a panel (y/n); cancellation closes the panel.
ext.tool(
  {
    name: 'sdk_approve',
    description: 'Ask the user to approve an action (y/n in a panel)',
    inputSchema: { type: 'object', properties: { action: { type: 'string' } }, required: ['action'] },
    interactive: true,
  },
  /** @param {{ action?: unknown }} args */
  (args, { signal }) =>
    new Promise((resolve, reject) => {
      const action = typeof args.action === 'string' && args.action ? args.action : 'this';
      const panel = ext.openPanel({ title: 'Approve?', lines: [`Allow ${action}?`], footer: 'y yes - n no' });
      panel.onKey((key, text) => {
        if (key !== 'rune' || (text !== 'y' && text !== 'n')) return;
        panel.close();
        resolve(text === 'y' ? `approved: ${action}` : { text: `denied: ${action}`, isError: true });
      });
      signal.addEventListener('abort', () => {
        panel.close();
        reject(new Error('cancelled'));
      });
    }),
);

// sdk_wait {ms}: waits, honouring tool_cancel through the AbortSignal.
ext.tool(
  { name: 'sdk_wait', description: 'Wait ms milliseconds (cancellable)', inputSchema: { type: 'object', properties: { ms: { type: 'integer' } } } },
  /** @param {{ ms?: unknown }} args */
  (args, { id, signal }) =>
    new Promise((resolve) => {
      const ms = typeof args.ms === 'number' ? args.ms : 100;
      const timer = setTimeout(() => resolve(`waited ${ms} ms`), ms);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        ext.log.info(`sdk_wait ${id} cancelled`);
        resolve('cancelled');
      });
    }),
);

// sdk_tally: counts its calls in the session's state (tool details come back in session events).
ext.tool({ name: 'sdk_tally', description: 'Count calls in this session', inputSchema: { type: 'object' } }, () => {
  const prev = /** @type {{ count?: number } | undefined} */ (ext.state);
  const count = (prev?.count ?? 0) + 1;
  return { text: `tally: ${count}`, details: { count } };
});

await ext.start();
