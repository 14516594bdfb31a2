// @ts-check
// A scripted model on 127.0.0.1 speaking Anthropic's Messages API, for the real agents (Claude Code, Copilot CLI):
// `POST /v1/messages` (SSE when `stream` is true: message_start, content_block_start/delta/stop, message_delta,
// message_stop; one JSON message otherwise) and `POST /v1/messages/count_tokens`. Each request of the agent's main
// loop (one that offers tools) takes the script's next step: a tool_use block or a text; any other request (a title,
// a quota probe) gets a short text. Every request body is recorded. The server also stands in as the agents'
// HTTP(S) proxy: a CONNECT or an absolute-URL request (something trying to leave the machine) is refused and
// recorded. Bounded: at most MAX_REQUESTS requests, and it closes itself after its lifetime.
import http from 'node:http';

/** The most requests one server answers (a runaway agent loop ends here). */
export const MAX_REQUESTS = 60;
/** A server closes itself after this long (a scenario takes well under it). */
export const SERVER_LIFETIME_MS = 5 * 60_000;
/** The longest a step may hold its answer back. */
const MAX_DELAY_MS = 10_000;
/** The largest request body read (agents send their whole system prompt and tool list: ~100 KB). */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * One step of a script: the model calls a tool, or answers with text (which ends the agent's turn); `delayMs` holds
 * the answer back that long (so an agent's fire-and-forget hooks of the step before can finish).
 * @typedef {{ tool: string, input: Record<string, unknown>, text?: string, delayMs?: number } | { text: string, delayMs?: number }} Step
 */

/**
 * What the server saw.
 * @typedef {{ path: string, body: any, main: boolean, step: number, at?: number }} Recorded (`at`: when a /v1/messages request came, ms)
 * @typedef {{ method: string, url: string, host?: string }} Escape
 */

let ids = 0;
const nextId = (prefix) => `${prefix}_${Date.now().toString(36)}${(++ids).toString(36).padStart(4, '0')}`;

/** The request is the agent's own loop (it offers tools) rather than a side request. */
const isMain = (body) => Array.isArray(body?.tools) && body.tools.length > 0;

/** The content blocks of a step. */
function blocks(step) {
  /** @type {any[]} */
  const out = [];
  if (step.text) out.push({ type: 'text', text: step.text });
  if ('tool' in step) out.push({ type: 'tool_use', id: nextId('toolu'), name: step.tool, input: step.input });
  return out;
}

/** A message as server-sent events. */
function sse(res, model, content) {
  const stop = content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
  const send = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'close' });
  send('message_start', {
    message: { id: nextId('msg'), type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } },
  });
  content.forEach((b, index) => {
    if (b.type === 'text') {
      send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      send('content_block_delta', { index, delta: { type: 'text_delta', text: b.text } });
    } else {
      send('content_block_start', { index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } });
      send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) } });
    }
    send('content_block_stop', { index });
  });
  send('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } });
  send('message_stop', {});
  res.end();
}

/** A message as one JSON body (a request without `stream`). */
function whole(res, model, content) {
  const stop = content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
  res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
  res.end(JSON.stringify({ id: nextId('msg'), type: 'message', role: 'assistant', model, content, stop_reason: stop, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } }));
}

/**
 * Starts a scripted model. `script` is consumed by the main-loop requests in order; past its end the model says
 * "done.".
 * @param {Step[]} script
 */
export async function startModel(script) {
  /** @type {Recorded[]} */
  const requests = [];
  /** @type {Escape[]} */
  const escapes = [];
  let nextStep = 0;
  const server = modelServer({
    tooMany: (res) => res.writeHead(429, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'scripted model: too many requests' } })),
    handle: (req, url, body, res) => {
      if (req.method === 'POST' && url.pathname === '/v1/messages/count_tokens') {
        requests.push({ path: url.pathname, body, main: false, step: -1 });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: 100 }));
        return;
      }
      if (req.method !== 'POST' || url.pathname !== '/v1/messages') {
        requests.push({ path: `${req.method} ${url.pathname}`, body, main: false, step: -1 });
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `scripted model: no ${url.pathname}` } }));
        return;
      }
      const main = isMain(body);
      const at = main ? nextStep++ : -1;
      requests.push({ path: url.pathname, body, main, step: at, at: Date.now() });
      /** @type {Step} */
      const step = main && at < script.length ? script[at] : { text: 'done.' };
      const content = blocks(step);
      const model = typeof body?.model === 'string' ? body.model : 'claude-sonnet-4-5';
      const answer = () => (body?.stream ? sse(res, model, content) : whole(res, model, content));
      if (step.delayMs) setTimeout(answer, Math.min(step.delayMs, MAX_DELAY_MS));
      else answer();
    },
  }, escapes);
  return serveTrapped(server, requests, escapes);
}

/** Everything a request carries as text (its messages and system prompt), for `includes` checks. */
export function requestText(body) {
  return JSON.stringify({ system: body?.system, messages: body?.messages });
}

/** The tool_result blocks of a request's last user message. */
export function toolResults(body) {
  const messages = Array.isArray(body?.messages) ? body.messages : [];
  const last = messages.filter((m) => m.role === 'user').at(-1);
  return Array.isArray(last?.content) ? last.content.filter((b) => b.type === 'tool_result') : [];
}

/**
 * The HTTP server of a scripted model, whatever its API dialect: an absolute-URL request (a proxied request for
 * somewhere else) is refused and recorded in `escapes`, and the scenario fails; past MAX_REQUESTS `tooMany` answers
 * (the dialect's own 429); otherwise the body is read up to MAX_BODY_BYTES (parsed as JSON when it is, else kept as
 * text) and `handle` answers. Serve it with `serveTrapped`.
 * @param {{ tooMany(res: http.ServerResponse): void, handle(req: http.IncomingMessage, url: URL, body: any, res: http.ServerResponse): void }} dialect
 * @param {{ method: string, url: string, host?: string }[]} escapes
 */
export function modelServer(dialect, escapes) {
  let count = 0;
  return http.createServer((req, res) => {
    count++;
    if (/^[a-z]+:\/\//i.test(req.url ?? '')) {
      escapes.push({ method: req.method ?? '', url: req.url ?? '', host: req.headers.host });
      res.writeHead(403).end('offline test: nothing leaves this machine\n');
      return;
    }
    if (count > MAX_REQUESTS) return dialect.tooMany(res);
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
      dialect.handle(req, url, body, res);
    });
  });
}

/**
 * Serves `server` on 127.0.0.1 as a scripted model and the agents' proxy trap: a CONNECT (something trying to leave
 * the machine) is refused and recorded in `escapes`; the server closes itself after SERVER_LIFETIME_MS. Shared by
 * every API dialect's model (this file, responsesModel.mjs, geminiModel.mjs, openaiChatModel.mjs).
 * @template {{ main: boolean }} R
 * @template {{ method: string, url: string, host?: string }} E
 * @param {http.Server} server @param {R[]} requests @param {E[]} escapes
 */
export async function serveTrapped(server, requests, escapes) {
  server.on('connect', (req, socket) => {
    escapes.push(/** @type {E} */ ({ method: 'CONNECT', url: req.url ?? '', host: req.headers.host }));
    socket.on('error', () => undefined); // the agent may reset it first
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
    /** The main-loop requests, in order. */
    main: () => requests.filter((r) => r.main),
    close: () =>
      new Promise((resolve) => {
        clearTimeout(lifetime);
        server.closeAllConnections();
        server.close(() => resolve(undefined));
      }),
  };
}
