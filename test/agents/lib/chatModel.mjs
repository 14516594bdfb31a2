// @ts-check
// A scripted model on 127.0.0.1 speaking OpenAI's Chat Completions API, for the real agents that reach a model
// through an "OpenAI-compatible" provider (opencode): `POST /v1/chat/completions` (SSE chunks ending in
// `data: [DONE]` when `stream` is true; one JSON completion otherwise). Each request of the agent's main loop (one
// that offers tools) takes the script's next step: a tool call or a text; any other request (a title) gets a short
// text. Every request body is recorded. Like model.mjs it is also the agents' HTTP(S) proxy: a CONNECT or an
// absolute-URL request (something trying to leave the machine) is refused and recorded. Bounded: at most
// MAX_REQUESTS requests, and it closes itself after its lifetime.
import http from 'node:http';
import { MAX_REQUESTS, SERVER_LIFETIME_MS } from './model.mjs';

/** The largest request body read (an agent sends its whole system prompt and tool list). */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** @typedef {import('./model.mjs').Step} Step */
/** @typedef {{ path: string, body: any, main: boolean, step: number }} Recorded */

let ids = 0;
const nextId = (prefix) => `${prefix}_${Date.now().toString(36)}${(++ids).toString(36).padStart(4, '0')}`;

/** The request is the agent's own loop (it offers tools). */
const isMain = (body) => Array.isArray(body?.tools) && body.tools.length > 0;

/** The assistant message of a step. */
function messageOf(step) {
  const calls = 'tool' in step ? [{ id: nextId('call'), type: 'function', function: { name: step.tool, arguments: JSON.stringify(step.input) } }] : [];
  return { role: 'assistant', content: step.text ?? (calls.length ? null : ''), ...(calls.length && { tool_calls: calls }) };
}

function sse(res, model, message) {
  const id = nextId('chatcmpl');
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta, finish = null) => res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'close' });
  chunk({ role: 'assistant', content: '' });
  if (message.content) chunk({ content: message.content });
  (message.tool_calls ?? []).forEach((c, index) => chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.function.name, arguments: c.function.arguments } }] }));
  chunk({}, message.tool_calls ? 'tool_calls' : 'stop');
  res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } })}\n\n`);
  res.end('data: [DONE]\n\n');
}

function whole(res, model, message) {
  res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
  res.end(JSON.stringify({ id: nextId('chatcmpl'), object: 'chat.completion', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } }));
}

/**
 * Starts a scripted Chat Completions model; `script` is consumed by the main-loop requests in order, then "done.".
 * @param {Step[]} script
 */
export async function startChatModel(script) {
  /** @type {Recorded[]} */
  const requests = [];
  /** @type {{ method: string, url: string, host?: string }[]} */
  const escapes = [];
  let nextStep = 0;
  let count = 0;
  const server = http.createServer((req, res) => {
    count++;
    if (/^[a-z]+:\/\//i.test(req.url ?? '')) {
      escapes.push({ method: req.method ?? '', url: req.url ?? '', host: req.headers.host });
      res.writeHead(403).end('offline test: nothing leaves this machine\n');
      return;
    }
    if (count > MAX_REQUESTS) {
      res.writeHead(429, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'scripted model: too many requests', type: 'rate_limit' } }));
      return;
    }
    /** @type {Buffer[]} */
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) req.destroy();
      else chunks.push(c);
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      let body;
      try {
        body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
      } catch {
        body = Buffer.concat(chunks).toString('utf8');
      }
      if (req.method !== 'POST' || !url.pathname.endsWith('/chat/completions')) {
        requests.push({ path: `${req.method} ${url.pathname}`, body, main: false, step: -1 });
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `scripted model: no ${url.pathname}`, type: 'not_found' } }));
        return;
      }
      const main = isMain(body);
      const at = main ? nextStep++ : -1;
      requests.push({ path: url.pathname, body, main, step: at });
      const step = main && at < script.length ? script[at] : { text: 'done.' };
      const model = typeof body?.model === 'string' ? body.model : 'scripted';
      if (body?.stream) sse(res, model, messageOf(step));
      else whole(res, model, messageOf(step));
    });
  });
  server.on('connect', (req, socket) => {
    escapes.push({ method: 'CONNECT', url: req.url ?? '', host: req.headers.host });
    socket.on('error', () => undefined);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  server.on('clientError', (_e, socket) => socket.destroy());
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(undefined));
  });
  const lifetime = setTimeout(() => server.close(), SERVER_LIFETIME_MS);
  lifetime.unref();
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    escapes,
    main: () => requests.filter((r) => r.main),
    close: () =>
      new Promise((resolve) => {
        clearTimeout(lifetime);
        server.closeAllConnections();
        server.close(() => resolve(undefined));
      }),
  };
}

/** The tool messages (role "tool") of a request, in order: what the agent sent back for each call. */
export function chatToolResults(body) {
  return (Array.isArray(body?.messages) ? body.messages : []).filter((m) => m.role === 'tool');
}
