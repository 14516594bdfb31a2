// The driver's side of bench/ui/agent (a test-only VS Code extension): runs code in the extension host over a Unix
// socket. `AgentClient.connect(address)` waits for the socket (a fresh window's agent creates it), then
// `call(code, args)` runs `code` as the body of an async function of (vscode, args, require) there, after HELPERS.
import fs from 'node:fs';
import net from 'node:net';

/** Helpers every call can use: zut() = zut-vscode's ExtensionHost API, until(fn, ms, every), epoch(). */
export const HELPERS = `
const epoch = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const until = async (fn, ms = 60000, every = 5) => {
  const end = Date.now() + ms;
  for (;;) { const v = await fn(); if (v) return v; if (Date.now() > end) throw new Error('timed out: ' + fn.toString().slice(0, 200)); await sleep(every); }
};
const zut = async () => (await vscode.extensions.getExtension('zut.zut-vscode').activate()).host;
const running = (h, name) => (h.extensions().find((e) => e.name === name) || {}).state === 'running';
`;

export class AgentClient {
  #socket;
  #waiting = new Map();
  #seq = 0;

  static async connect(address, timeoutMs = 90_000) {
    const end = Date.now() + timeoutMs;
    for (;;) {
      if (fs.existsSync(address)) {
        const socket = await new Promise((resolve) => {
          const s = net.connect(address);
          s.once('connect', () => resolve(s));
          s.once('error', () => resolve(undefined));
        });
        if (socket) return new AgentClient(socket);
      }
      if (Date.now() > end) throw new Error(`the bench agent did not listen on ${address} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  constructor(socket) {
    this.#socket = socket;
    let buf = '';
    socket.setEncoding('utf8');
    socket.on('data', (d) => {
      buf += d;
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        const m = JSON.parse(buf.slice(0, i));
        buf = buf.slice(i + 1);
        const w = this.#waiting.get(m.id);
        this.#waiting.delete(m.id);
        if (w) (m.ok ? w.resolve(m.value) : w.reject(new Error(`in the extension host: ${m.error}`)));
      }
    });
    const fail = () => { for (const w of this.#waiting.values()) w.reject(new Error('the bench agent connection closed')); this.#waiting.clear(); };
    socket.on('close', fail);
    socket.on('error', fail);
  }

  call(code, args = {}) {
    const id = ++this.#seq;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.#socket.write(JSON.stringify({ id, code: HELPERS + code, args }) + '\n');
    });
  }

  close() {
    this.#socket.destroy();
  }
}
