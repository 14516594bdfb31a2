// @ts-check
// A stand-in for GitHub Copilot's API (CAPI) on 127.0.0.1, for VS Code's Agent Host harnesses in tests: the
// Agent Host and its Copilot SDK runtime take it through VSCODE_AGENT_HOST_CAPI_URL_OVERRIDE, COPILOT_API_URL and
// COPILOT_DEBUG_GITHUB_API_URL (loopback only; VS Code's own agent-host e2e tests route them the same way) with the
// workbench's `chat.agentHost.unsafeTestToken` as the GitHub token. It answers user discovery, the token exchange and
// /models (one Claude model spoken through Anthropic's Messages API) itself and passes /v1/messages to the scripted
// Anthropic model (test/agents/lib/model.mjs). Given a scripted Responses model too (test/agents/lib/responsesModel.mjs,
// for the Codex harness), /models also offers one OpenAI model spoken through the Responses API and /responses goes to
// it. Everything else is recorded and refused (404).
import http from 'node:http';

/** The model /models offers (its id is what the harness sends as `model`). */
export const CAPI_MODEL_ID = 'claude-sonnet-4.5';
/** Its name in VS Code's model picker. */
export const CAPI_MODEL_NAME = 'Claude Sonnet 4.5 (scripted)';
/**
 * The OpenAI model /models offers with a Responses model: gpt-5, not in Codex's catalog, so Codex offers MCP tools
 * directly rather than behind tool_search (as test/agents/codex.test.mjs found).
 */
export const CAPI_RESPONSES_MODEL_ID = 'gpt-5';
/** Its name in VS Code's model picker. */
export const CAPI_RESPONSES_MODEL_NAME = 'GPT-5 (scripted)';
/** The largest request body read. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** A token's life in the token exchange's answer (s): longer than any test. */
const TOKEN_LIFE_S = 3600;

/**
 * @param {{ url: string }} model the scripted Anthropic Messages model (startModel)
 * @param {{ url: string }} [responses] a scripted Responses model (startResponsesModel)
 * @returns {Promise<{ url: string, seen: { method: string, path: string, auth: string, agent: string }[], close: () => Promise<void> }>}
 */
export async function startCapi(model, responses) {
  /** @type {{ method: string, path: string, auth: string, agent: string }[]} (`agent`: the request's User-Agent) */
  const seen = [];
  let base = '';
  const json = (res, code, value) => res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  /** Passes a request body to `to` and its answer back. */
  const forward = (res, to, body) => {
    const fwd = http.request(to, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': body.length } }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    fwd.on('error', (e) => json(res, 502, { error: { message: String(e) } }));
    fwd.end(body);
  };
  const endpoints = () => ({ api: base, proxy: base, telemetry: base, 'origin-tracker': base });
  const server = http.createServer((req, res) => {
    const chunks = [];
    let size = 0;
    req.on('data', (c) => { size += c.length; if (size > MAX_BODY_BYTES) req.destroy(); else chunks.push(c); });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', base);
      seen.push({ method: req.method ?? '', path: url.pathname, auth: String(req.headers.authorization ?? '').slice(0, 40), agent: String(req.headers['user-agent'] ?? '') });
      const body = Buffer.concat(chunks);
      // The runtime also asks /copilot_internal/managed_settings, /mcp/readonly (GitHub's MCP server), /auto and
      // /models/session (auto mode): refused, and the harness goes on without them.
      if (req.method === 'GET' && url.pathname === '/copilot_internal/user') {
        return json(res, 200, { login: 'zut-test', copilot_plan: 'individual', access_type_sku: 'free_educational', chat_enabled: true, endpoints: endpoints() });
      }
      if (req.method === 'GET' && url.pathname === '/copilot_internal/v2/token') {
        const exp = Math.floor(Date.now() / 1000) + TOKEN_LIFE_S;
        return json(res, 200, { token: `tid=zut-test;exp=${exp};sku=free_educational;chat=1`, expires_at: exp, refresh_in: TOKEN_LIFE_S / 2, chat_enabled: true, endpoints: endpoints() });
      }
      if (req.method === 'GET' && url.pathname === '/models') {
        const claude = {
          id: CAPI_MODEL_ID, name: CAPI_MODEL_NAME, vendor: 'Anthropic', version: CAPI_MODEL_ID, object: 'model',
          model_picker_enabled: true, model_picker_category: 'versatile', preview: false, is_chat_default: true, is_chat_fallback: true,
          capabilities: { family: CAPI_MODEL_ID, type: 'chat', object: 'model_capabilities', tokenizer: 'o200k_base',
            limits: { max_context_window_tokens: 200000, max_output_tokens: 16000, max_prompt_tokens: 128000 },
            supports: { streaming: true, tool_calls: true, parallel_tool_calls: true, vision: false } },
          policy: { state: 'enabled', terms: '' }, supported_endpoints: ['/v1/messages', '/chat/completions'],
          billing: { is_premium: false, multiplier: 0 },
        };
        const openai = {
          ...claude, id: CAPI_RESPONSES_MODEL_ID, name: CAPI_RESPONSES_MODEL_NAME, vendor: 'OpenAI', version: CAPI_RESPONSES_MODEL_ID,
          is_chat_default: false, is_chat_fallback: false, capabilities: { ...claude.capabilities, family: CAPI_RESPONSES_MODEL_ID },
          supported_endpoints: ['/responses'],
        };
        return json(res, 200, { object: 'list', data: responses ? [claude, openai] : [claude] });
      }
      if (responses && req.method === 'POST' && (url.pathname === '/responses' || url.pathname === '/v1/responses')) {
        forward(res, `${responses.url}/v1/responses`, body);
        return;
      }
      if (req.method === 'POST' && (url.pathname === '/v1/messages' || url.pathname === '/v1/messages/count_tokens')) {
        forward(res, `${model.url}${url.pathname}`, body);
        return;
      }
      return json(res, 404, { error: { message: `capi stand-in: no ${req.method} ${url.pathname}` } });
    });
  });
  server.on('connect', (req, socket) => { seen.push({ method: 'CONNECT', path: req.url ?? '', auth: '', agent: '' }); socket.end('HTTP/1.1 403 Forbidden\r\n\r\n'); });
  await new Promise((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', () => resolve(undefined)); });
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { url: base, seen, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r(undefined)); }) };
}
