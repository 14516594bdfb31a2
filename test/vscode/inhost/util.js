// Shared helpers of the in-host suites (not a test file: index.js loads only *.test.js).
'use strict';
const assert = require('assert');

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

module.exports = { eventually };
