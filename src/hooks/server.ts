/**
 * The running window's end of `zut-host hook`'s fast path: a local socket (a Unix socket in the private per-user
 * directory of rendezvous.ts; a named pipe on Windows) and one rendezvous file per workspace folder naming it and a
 * random token. A hook sends one line `{"token", "agent", "event", "camel", "input"}` (input: the agent's raw JSON)
 * and gets one line back: `{"stdout", "stderr"?, "exitCode"}`. A wrong token, a line over the limit or none within
 * HOOK_REQUEST_MS closes the socket (the first line is read as the relay's is: src/host/localSocket.ts). The answer
 * comes from the guards already running in this host (answer.ts). VS Code-free.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import * as z from 'zod';
import { listenLocal, readFirstLine } from '../host/localSocket';
import { HOOK_INPUT_MAX_BYTES, HOOK_REQUEST_MS } from '../protocol/limits';
import { answerHook, type HookHost } from './answer';
import { readHookInput } from './input';
import { HOOK_AGENTS, hookEventOf, type HookAgent, type HookAnswer } from './names';
import { ensurePrivateDir, hooksDir, rendezvousFile } from './rendezvous';

const Request = z.object({ token: z.string(), agent: z.string(), event: z.string(), camel: z.boolean(), input: z.string() });

/** A request line's limit: the input plus the envelope. */
const REQUEST_MAX_BYTES = HOOK_INPUT_MAX_BYTES * 2 + 4096;

export class HookServer {
  private readonly sockets = new Set<net.Socket>();
  private constructor(
    private readonly server: net.Server,
    readonly address: string,
    private readonly token: Buffer,
    private readonly files: string[],
    private readonly host: HookHost,
    private readonly requestMs: number,
  ) {
    server.on('connection', (s) => this.accept(s));
  }

  /** Listens and writes a rendezvous file for each folder; a string says why it cannot (the hook then runs headless). */
  static async listen(host: HookHost, folders: readonly string[], dir = hooksDir(), requestMs = HOOK_REQUEST_MS): Promise<HookServer | string> {
    const why = ensurePrivateDir(dir);
    if (why) return why;
    const id = randomBytes(12).toString('hex');
    const address = process.platform === 'win32' ? `\\\\.\\pipe\\zut-hooks-${id}` : path.join(dir, `${id}.sock`);
    const server = await listenLocal(address);
    const token = randomBytes(32);
    const files = folders.map((f) => rendezvousFile(dir, f));
    folders.forEach((folder, i) => {
      const body = JSON.stringify({ address, token: token.toString('hex'), pid: process.pid, folder: path.resolve(folder) });
      const tmp = `${files[i]}.${id}.tmp`;
      fs.writeFileSync(tmp, body, { mode: 0o600, flag: 'wx' });
      fs.renameSync(tmp, files[i]);
    });
    return new HookServer(server, address, token, files, host, requestMs);
  }

  private accept(s: net.Socket): void {
    this.sockets.add(s);
    s.on('close', () => this.sockets.delete(s));
    s.on('error', () => s.destroy());
    readFirstLine(s, REQUEST_MAX_BYTES, this.requestMs, (line) => void this.serve(s, line.toString('utf8')));
  }

  private async serve(s: net.Socket, line: string): Promise<void> {
    let req: z.infer<typeof Request>;
    try {
      req = Request.parse(JSON.parse(line));
    } catch {
      return void s.destroy();
    }
    const given = Buffer.from(req.token, 'hex');
    if (given.length !== this.token.length || !timingSafeEqual(given, this.token)) return void s.destroy();
    const event = hookEventOf(req.event);
    const agent = req.agent as HookAgent;
    let answer: HookAnswer;
    if (!event || !HOOK_AGENTS.includes(agent)) answer = { stdout: '', stderr: `zut: unknown hook ${req.agent} ${req.event}\n`, exitCode: 1 };
    else {
      const input = readHookInput(req.input);
      answer =
        typeof input === 'string'
          ? { stdout: '', stderr: `zut-host hook: ${input}\n`, exitCode: -1 } // the client applies the agent's failure rule
          : await answerHook(this.host, { agent, event, camel: req.camel }, input).catch((e: unknown) => ({ stdout: '', stderr: `zut-host hook: ${e instanceof Error ? e.message : String(e)}\n`, exitCode: -1 }));
    }
    s.end(JSON.stringify(answer) + '\n');
  }

  dispose(): void {
    for (const f of this.files) fs.rmSync(f, { force: true });
    for (const s of this.sockets) s.destroy();
    this.server.close();
    if (process.platform !== 'win32') fs.rmSync(this.address, { force: true });
  }
}
