// Shared helpers of the in-host suites (not a test file: index.js loads only *.test.js).
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');

/** Polls `fn` (sync or async) until it returns something truthy; fails naming `what` after `ms`. */
async function eventually(fn, what, ms = 20000, every = 100) {
  const end = Date.now() + ms;
  for (;;) {
    const last = await fn();
    if (last) return last;
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/** Names of the extensions under `<folder>/.zut/extensions` whose manifest does not say `enabled: false`, sorted. */
function enabledExtensions(folder) {
  const dir = path.join(folder, '.zut', 'extensions');
  return fs.readdirSync(dir).filter((d) => {
    try { return JSON.parse(fs.readFileSync(path.join(dir, d, 'extension.json'), 'utf8')).enabled !== false; } catch { return false; }
  }).sort();
}

module.exports = { enabledExtensions, eventually };
