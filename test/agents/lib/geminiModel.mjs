// @ts-check
// A scripted model on 127.0.0.1 speaking the Gemini API (generativelanguage v1beta), for Gemini CLI
// (`GOOGLE_GEMINI_BASE_URL`): `POST /v1beta/models/<model>:generateContent` (one JSON response) and
// `:streamGenerateContent?alt=sse` (server-sent events, `data: <GenerateContentResponse>`), `:countTokens`. Each
// request of the agent's main loop (one that offers tools: `tools[].functionDeclarations`) takes the script's next
// step: a functionCall part or a text; any other request (Gemini CLI's routing `generateContent` with a JSON response
// schema, a title, a summary) gets a short text — JSON for the router (`{"reasoning", "model_choice": "flash"}`).
// Every request body is recorded. The server also stands in as the agent's HTTP(S) proxy: a CONNECT or an
// absolute-URL request (something trying to leave the machine) is refused and recorded. Bounded: at most
// MAX_REQUESTS requests, and it closes itself after its lifetime (the limits of model.mjs).
import { modelServer, serveTrapped } from './model.mjs';

/** The longest a step may hold its answer back. */
const MAX_DELAY_MS = 10_000;

/**
 * One step: the model calls a function, or answers with text (which ends the turn).
 * @typedef {{ tool: string, input: Record<string, unknown>, text?: string, delayMs?: number } | { text: string, delayMs?: number }} Step
 * @typedef {{ path: string, body: any, main: boolean, step: number, at?: number }} Recorded
 * @typedef {{ method: string, url: string, host?: string }} Escape
 */

/** The request is the agent's own loop (it offers functions) rather than a side request. */
const isMain = (body) => Array.isArray(body?.tools) && body.tools.some((t) => Array.isArray(t?.functionDeclarations) && t.functionDeclarations.length > 0);

/** A side request that wants JSON back (the router's `generationConfig.responseMimeType`). */
const wantsJson = (body) => body?.generationConfig?.responseMimeType === 'application/json' || body?.generationConfig?.responseJsonSchema !== undefined || body?.generationConfig?.responseSchema !== undefined;

/** The parts of a step. */
function parts(step) {
  /** @type {any[]} */
  const out = [];
  if (step.text) out.push({ text: step.text });
  if ('tool' in step) out.push({ functionCall: { name: step.tool, args: step.input } });
  return out;
}

/** One GenerateContentResponse. */
const response = (model, content) => ({
  candidates: [{ content: { role: 'model', parts: content }, finishReason: 'STOP', index: 0 }],
  usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
  modelVersion: model,
});

/**
 * Starts a scripted Gemini model. `script` is consumed by the main-loop requests in order; past its end the model
 * says "done.".
 * @param {Step[]} script
 */
export async function startGeminiModel(script) {
  /** @type {Recorded[]} */
  const requests = [];
  /** @type {Escape[]} */
  const escapes = [];
  let nextStep = 0;
  const server = modelServer({
    tooMany: (res) => res.writeHead(429, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 429, message: 'scripted model: too many requests', status: 'RESOURCE_EXHAUSTED' } })),
    handle: (req, url, body, res) => {
      const m = /^\/v1(?:beta|alpha)?\/models\/([^:/]+):(generateContent|streamGenerateContent|countTokens)$/.exec(url.pathname);
      if (req.method !== 'POST' || !m) {
        requests.push({ path: `${req.method} ${url.pathname}`, body, main: false, step: -1 });
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 404, message: `scripted model: no ${url.pathname}`, status: 'NOT_FOUND' } }));
        return;
      }
      const [, model, method] = m;
      if (method === 'countTokens') {
        requests.push({ path: url.pathname, body, main: false, step: -1 });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ totalTokens: 100 }));
        return;
      }
      const main = isMain(body);
      const at = main ? nextStep++ : -1;
      requests.push({ path: url.pathname, body, main, step: at, at: Date.now() });
      /** @type {Step} */
      const step = main && at < script.length ? script[at] : main ? { text: 'done.' } : { text: wantsJson(body) ? JSON.stringify({ reasoning: 'scripted', model_choice: 'flash', complexity_reasoning: 'scripted', complexity_score: 1 }) : 'done.' };
      const content = parts(step);
      const answer = () => {
        if (method === 'streamGenerateContent') {
          res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'close' });
          res.end(`data: ${JSON.stringify(response(model, content))}\n\n`);
        } else {
          res.writeHead(200, { 'content-type': 'application/json', connection: 'close' }).end(JSON.stringify(response(model, content)));
        }
      };
      if (step.delayMs) setTimeout(answer, Math.min(step.delayMs, MAX_DELAY_MS));
      else answer();
    },
  }, escapes);
  return serveTrapped(server, requests, escapes);
}

/** The functionResponse parts of a request's last user turn. */
export function functionResponses(body) {
  const contents = Array.isArray(body?.contents) ? body.contents : [];
  const last = contents.filter((c) => c.role === 'user').at(-1);
  return Array.isArray(last?.parts) ? last.parts.filter((p) => p.functionResponse).map((p) => p.functionResponse) : [];
}

/** Everything a request carries as text (system instruction and contents), for `includes` checks. */
export function geminiRequestText(body) {
  return JSON.stringify({ system: body?.systemInstruction, contents: body?.contents });
}
