// @ts-check
// A scripted model on 127.0.0.1 speaking OpenAI's Responses API, for Codex CLI: `POST /v1/responses`, answered as
// server-sent events (response.created, response.output_item.added/done, response.completed). Each request that
// offers tools takes the script's next step: a `function_call` item (the tool and its arguments) or an assistant
// `message` (which ends the turn); any other request gets a short text. Every request body is recorded. Like model.mjs
// it stands in as the agent's HTTP(S) proxy: a CONNECT or an absolute-URL request (something trying to leave the
// machine) is refused and recorded. Bounded: at most MAX_REQUESTS requests, closed after its lifetime.
import { modelServer, serveTrapped } from './model.mjs';

/**
 * One step: the model calls `tool` (a function tool's name; `namespace` for an MCP server's tool, which Codex offers
 * as a namespace `mcp__<server>`) with `input`; calls the freeform (custom) tool `custom` with the text `input`
 * (Codex's `apply_patch`); or answers `text`.
 * @typedef {{ tool: string, namespace?: string, input: Record<string, unknown> } | { custom: string, input: string } | { text: string }} Step
 * @typedef {{ path: string, body: any, main: boolean, step: number }} Recorded
 * @typedef {{ method: string, url: string, host?: string }} Escape
 */

let ids = 0;
const nextId = (prefix) => `${prefix}_${Date.now().toString(36)}${(++ids).toString(36).padStart(4, '0')}`;

/** The output item of a step. */
function itemOf(step) {
  if ('custom' in step) return { type: 'custom_tool_call', id: nextId('ctc'), call_id: nextId('call'), name: step.custom, input: step.input, status: 'completed' };
  if ('tool' in step) {
    return { type: 'function_call', id: nextId('fc'), call_id: nextId('call'), name: step.tool, ...(step.namespace && { namespace: step.namespace }), arguments: JSON.stringify(step.input), status: 'completed' };
  }
  return { type: 'message', id: nextId('msg'), role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: step.text, annotations: [] }] };
}

/** One response as server-sent events. */
function sse(res, model, item) {
  const id = nextId('resp');
  let seq = 0;
  const send = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`);
  const response = (status, output) => ({ id, object: 'response', created_at: Math.floor(Date.now() / 1000), status, model, output });
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'close' });
  send('response.created', { response: response('in_progress', []) });
  send('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress' } });
  send('response.output_item.done', { output_index: 0, item });
  send('response.completed', {
    response: { ...response('completed', [item]), usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 } },
  });
  res.end();
}

/**
 * Starts a scripted Responses model; `script` is consumed by the requests that offer tools, in order; past its end
 * the model says "done.".
 * @param {Step[]} script
 */
export async function startResponsesModel(script) {
  /** @type {Recorded[]} */
  const requests = [];
  /** @type {Escape[]} */
  const escapes = [];
  let nextStep = 0;
  const server = modelServer({
    tooMany: (res) => res.writeHead(429, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type: 'rate_limit_exceeded', message: 'scripted model: too many requests' } })),
    handle: (req, url, body, res) => {
      if (req.method !== 'POST' || url.pathname !== '/v1/responses') {
        requests.push({ path: `${req.method} ${url.pathname}`, body, main: false, step: -1 });
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type: 'not_found', message: `scripted model: no ${url.pathname}` } }));
        return;
      }
      const main = Array.isArray(body?.tools) && body.tools.length > 0;
      const at = main ? nextStep++ : -1;
      requests.push({ path: url.pathname, body, main, step: at });
      /** @type {Step} */
      const step = main && at < script.length ? script[at] : { text: 'done.' };
      sse(res, typeof body?.model === 'string' ? body.model : 'gpt-5', itemOf(step));
    },
  }, escapes);
  return serveTrapped(server, requests, escapes);
}

/**
 * The output the model got back for its call `callId` (the next request's `function_call_output` item), as text.
 * @param {any} body @param {string} [callId]
 */
export function callOutput(body, callId) {
  const items = Array.isArray(body?.input) ? body.input : [];
  const out = items.filter((i) => (i?.type === 'function_call_output' || i?.type === 'custom_tool_call_output') && (callId === undefined || i.call_id === callId)).at(-1);
  if (!out) return undefined;
  return typeof out.output === 'string' ? out.output : JSON.stringify(out.output);
}
