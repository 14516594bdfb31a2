#!/usr/bin/env node
// @ts-check
// TEST ONLY: a hook command that records what an agent gives it. `node logHook.mjs LOG EVENT [ANSWER]` appends one
// JSON line `{ event, at, pid, payload }` to LOG (the stdin as JSON, or as text when it is not JSON) and
// prints ANSWER (a JSON text) on stdout when given; exit 0.
import fs from 'node:fs';

const [log, event, answer] = process.argv.slice(2);
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  const text = Buffer.concat(chunks).toString('utf8');
  let payload;
  try {
    payload = JSON.parse(text);
  } catch {
    payload = text;
  }
  fs.appendFileSync(log, JSON.stringify({ event, at: Date.now(), pid: process.pid, payload }) + '\n');
  if (answer) process.stdout.write(answer + '\n');
});
