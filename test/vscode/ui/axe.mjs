// @ts-check
// Accessibility, measured: runs axe-core (devDependency) inside a webview's content frame in the UI suite and fails
// with each violation's rule id, impact and nodes, so a webview we show stays at 0 violations.
import assert from 'node:assert/strict';
import axe from 'axe-core';
import { webview } from './harness.mjs';

/**
 * axe-core's violations in the content frame of the (first, or `nth`) ready webview (code-server nests: workbench
 * → webview host iframe → our `active-frame` iframe). The script goes in as a DevTools evaluation, which the
 * webview's CSP (script-src nonce only) does not apply to; nothing is added to the page's DOM.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<{ id: string, impact: string, help: string, nodes: string[] }[]>}
 */
export async function webviewAxeViolations(page, nth = 0) {
  const frame = await (await webview(page, nth).owner().elementHandle())?.contentFrame();
  assert.ok(frame, 'the webview content frame');
  await frame.evaluate(axe.source);
  return frame.evaluate(async () => {
    const a = /** @type {any} */ (window).axe;
    const result = await a.run(document, { resultTypes: ['violations'] });
    return result.violations.map((/** @type {any} */ v) => ({
      id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.map((/** @type {any} */ n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`.replace(/\s+/g, ' ')),
    }));
  });
}

/**
 * Fails unless axe-core reports 0 violations in the (first, or `nth`) ready webview; the message lists each
 * violation (id, impact, what it checks) and its nodes. `what` names the webview in the message.
 * @param {import('playwright-core').Page} page
 * @param {string} what
 */
export async function assertWebviewAccessible(page, what, nth = 0) {
  const violations = await webviewAxeViolations(page, nth);
  const report = violations.map((v) => `  ${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    - ${n}`).join('\n')}`).join('\n');
  assert.equal(violations.length, 0, `axe-core: ${violations.length} violation(s) in ${what}:\n${report}`);
}
