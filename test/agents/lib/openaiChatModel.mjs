// @ts-check
// A scripted model on 127.0.0.1 speaking OpenAI's Chat Completions API, for the real agents that take an
// OpenAI-compatible base URL (Cline CLI, Qwen Code, opencode): `POST …/chat/completions` (SSE `chat.completion.chunk`s ending
// in `data: [DONE]` when `stream` is true; one `chat.completion` otherwise) and `GET …/models`. Each request of the
// agent's main loop (one that offers tools) takes the script's next step: a tool call or a text; any other request
// (a title, a summary) gets a short text. Every request body is recorded. Like model.mjs it also stands in as the
// agents' HTTP(S) proxy: a CONNECT or an absolute-URL request (something trying to leave the machine) is refused
// and recorded. Bounded: at most MAX_REQUESTS requests, and it closes itself after its lifetime.
import { modelServer, serveTrapped } from './model.mjs';

/** The longest a step may hold its answer back. */
const MAX_DELAY_MS = 10_000;

/**
 * @typedef {{ tool: string, input: Record<string, unknown>, text?: string, delayMs?: number } | { text: string, delayMs?: number }} Step
 * @typedef {{ path: string, body: any, main: boolean, step: number }} Recorded
 * @typedef {{ method: string, url: string, host?: string }} Escape
 */

let ids = 0;
const nextId = (prefix) => `${prefix}_${Date.now().toString(36)}${(++ids).toString(36).padStart(4, '0')}`;
const isMain = (body) => Array.isArray(body?.tools) && body.tools.length > 0;

/** The assistant message of a step. */
function message(step) {
  const tool = 'tool' in step ? [{ id: nextId('call'), type: 'function', function: { name: step.tool, arguments: JSON.stringify(step.input) } }] : undefined;
  return { role: 'assistant', content: step.text ?? (tool ? null : ''), ...(tool && { tool_calls: tool }) };
}

function answer(res, body, msg) {
  const model = typeof body?.model === 'string' ? body.model : 'scripted';
  const finish = msg.tool_calls ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 };
  const id = nextId('chatcmpl');
  const created = Math.floor(Date.now() / 1000);
  if (body?.stream !== true) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id, object: 'chat.completion', created, model, choices: [{ index: 0, message: msg, finish_reason: finish }], usage }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'close' });
  const chunk = (delta, finish_reason = null, extra = {}) => res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason }], ...extra })}\n\n`);
  chunk({ role: 'assistant', content: '' });
  if (msg.content) chunk({ content: msg.content });
  for (const [index, c] of (msg.tool_calls ?? []).entries()) chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.function.name, arguments: c.function.arguments } }] });
  chunk({}, finish);
  chunk({}, null, { choices: [], usage });
  res.end('data: [DONE]\n\n');
}

/** Starts the server with `script` (the main loop's answers, in order; after the last: "done"). */
export async function startChatModel(/** @type {Step[]} */ script) {
  /** @type {Recorded[]} */
  const requests = [];
  /** @type {Escape[]} */
  const escapes = [];
  let nextStep = 0;
  const server = modelServer({
    tooMany: (res) => res.writeHead(429, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type: 'rate_limit_error', message: 'scripted model: too many requests' } })),
    handle: (req, _url, body, res) => {
      if (req.method === 'GET' && /\/models\/?$/.test(req.url ?? '')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'scripted', object: 'model', created: 0, owned_by: 'test' }] }));
        return;
      }
      const main = isMain(body);
      const step = main ? nextStep++ : -1;
      requests.push({ path: req.url ?? '', body, main, step });
      if (!/\/chat\/completions\/?$/.test(req.url ?? '')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `scripted model: no ${req.url}` } }));
        return;
      }
      const s = main ? (script[step] ?? { text: 'done' }) : { text: 'ok' };
      const delay = Math.min(s.delayMs ?? 0, MAX_DELAY_MS);
      setTimeout(() => answer(res, body, message(s)), delay);
    },
  }, escapes);
  return serveTrapped(server, requests, escapes);
}

/** The tool results the agent sent back in a request (`role: "tool"` messages' text), in order. */
export function chatToolResults(body) {
  const msgs = Array.isArray(body?.messages) ? body.messages : [];
  return msgs.filter((m) => m?.role === 'tool').map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
}
