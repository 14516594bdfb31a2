// @ts-check
// The rig's own checks: the scripted model refuses and records anything that tries to leave the machine through it
// (a CONNECT, an absolute-URL request), and that check sees the real agents' traffic — with their offline switches
// off, both try to reach their vendor through the proxy and are caught. So "no escapes" in the other scenarios means
// something. run.mjs runs this file first.
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { startModel } from './lib/model.mjs';
import { sandboxEach } from './lib/sandbox.mjs';
import { runClaude, runCopilot } from './lib/scenario.mjs';

/** A raw request line to the model server; resolves with the first line of its answer. */
function rawRequest(url, text) {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const s = net.connect(Number(port), '127.0.0.1', () => s.write(text));
    let got = '';
    s.on('data', (d) => (got += d));
    s.on('error', reject);
    s.on('close', () => resolve(got.split('\r\n')[0]));
    s.setTimeout(10_000, () => s.destroy(new Error('no answer')));
  });
}

describe('offline rig', function () {
  const box = sandboxEach('offline');

  it('the scripted model refuses and records a CONNECT and an absolute-URL request', async function () {
    const model = await startModel([{ text: 'hello' }]);
    try {
      assert.equal(await rawRequest(model.url, 'CONNECT api.anthropic.com:443 HTTP/1.1\r\nHost: api.anthropic.com:443\r\n\r\n'), 'HTTP/1.1 403 Forbidden');
      assert.match(await rawRequest(model.url, 'GET http://example.com/x HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n'), /^HTTP\/1\.1 403/);
      assert.deepEqual(model.escapes.map((e) => [e.method, e.url]), [['CONNECT', 'api.anthropic.com:443'], ['GET', 'http://example.com/x']]);
      // And it answers the Messages API: count_tokens, and a step of the script as server-sent events.
      const count = await fetch(`${model.url}/v1/messages/count_tokens`, { method: 'POST', body: '{}' });
      assert.equal(http.STATUS_CODES[count.status], 'OK');
      assert.deepEqual(await count.json(), { input_tokens: 100 });
      const body = JSON.stringify({ model: 'm', stream: true, tools: [{ name: 't', input_schema: { type: 'object' } }], messages: [{ role: 'user', content: 'hi' }] });
      const sse = await (await fetch(`${model.url}/v1/messages`, { method: 'POST', body })).text();
      const types = [...sse.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
      assert.deepEqual(types, ['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
      assert.ok(sse.includes('"text":"hello"'));
      assert.deepEqual(model.main().map((r) => r.step), [0]);
    } finally {
      await model.close();
    }
  });

  it('Claude Code without CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC and the telemetry switches: caught going to its vendor', async function () {
    const sb = box();
    const r = await runClaude(sb, [{ text: 'hi' }], { unset: ['CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC', 'DISABLE_TELEMETRY', 'DISABLE_ERROR_REPORTING'], escapes: true });
    assert.ok(r.escapes.length > 0, 'nothing was caught');
    assert.ok(r.escapes.every((e) => e.method === 'CONNECT'), JSON.stringify(r.escapes));
    assert.ok(r.escapes.some((e) => e.url === 'api.anthropic.com:443'), JSON.stringify(r.escapes));
  });

  it('Copilot CLI without COPILOT_OFFLINE and --disable-client-telemetry: caught going to its vendor', async function () {
    const sb = box();
    const r = await runCopilot(sb, [{ text: 'hi' }], { args: ['--allow-all-tools'], unset: ['COPILOT_OFFLINE'], telemetry: true, escapes: true });
    assert.ok(r.escapes.length > 0, 'nothing was caught');
    assert.ok(r.escapes.some((e) => e.method === 'CONNECT' && e.url === 'api.github.com:443'), JSON.stringify(r.escapes));
  });
});
