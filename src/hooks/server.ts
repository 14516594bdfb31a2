/**
 * The answering end of `zut-host hook`'s fast path, in a window or in the warm headless host: a local socket (a Unix
 * socket in the private per-user directory of rendezvous.ts; a named pipe on Windows) and rendezvous files naming it
 * with a random token — a window one per workspace folder (its own name: two windows on one folder each keep theirs),
 * the warm host the one of its folder and options. A hook sends one line `{"token", "agent", "event", "camel",
 * "budgetMs", "input"}` (input: the agent's raw JSON; budgetMs: the time left of the hook's own budget) and gets one
 * line back: `{"stdout", "stderr"?, "exitCode"}`, within that budget whatever the extensions do (a PreToolUse not
 * judged in time is denied). A wrong token, a line over the limit or none within HOOK_REQUEST_MS closes the socket
 * (the first line is read as the relay's is: localSocket.ts). The answer comes from this host's extensions, those
 * still starting waited for within the budget (answer.ts), with the server's one memory of the agents' calls
 * (callMemory.ts). Only its own rendezvous files are removed when it closes. VS Code-free.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import * as z from 'zod';
import { listenLocal, readFirstLine } from './localSocket';
import { HOOK_BUDGET_MS, HOOK_DOOR_MARGIN_MS, HOOK_INPUT_MAX_BYTES, HOOK_REQUEST_MS } from '../protocol/limits';
import { answerHook, type HookAnswerHost } from './answer';
import { CallMemory } from './callMemory';
import { hookFailure, lateAnswer } from './failure';
import { hookEventOf } from './dialects';
import { readHookInput, type HookInput } from './input';
import { HOOK_AGENTS, hookBudgetMs, type HookAgent, type HookAnswer, type HookCall } from './names';
import { ensurePrivateDir, hooksDir, processStart, readRendezvous, realFolder, windowFile, writeRendezvous, type Rendezvous } from './rendezvous';

const Request = z.object({ token: z.string(), agent: z.string(), event: z.string(), camel: z.boolean(), budgetMs: z.number().nonnegative().optional(), input: z.string() });

/** A request line's limit: the input plus the envelope. */
const REQUEST_MAX_BYTES = HOOK_INPUT_MAX_BYTES * 2 + 4096;

/** How a server is set up: where, for whom, and what it calls for each request. */
export interface HookServerOptions {
  /** The private directory (default: rendezvous.ts `hooksDir`). */
  dir?: string;
  requestMs?: number;
  /** A warm host's rendezvous file (instead of a window's one per folder). */
  warmFile?: string;
  /** Every request, before it is answered (the warm host's idle clock). */
  onRequest?: () => void;
}

export class HookServer {
  private readonly sockets = new Set<net.Socket>();
  /** What it remembers of the agents' calls, for their later events (permission, result). */
  private readonly memory = new CallMemory();
  private constructor(
    private readonly server: net.Server,
    readonly address: string,
    private readonly token: Buffer,
    private readonly files: string[],
    private readonly host: HookAnswerHost,
    private readonly o: HookServerOptions,
  ) {
    server.on('connection', (s) => this.accept(s));
  }

  /** Listens and writes its rendezvous files; a string says why it cannot (the hook then runs headless). */
  static async listen(host: HookAnswerHost, folders: readonly string[], o: HookServerOptions = {}): Promise<HookServer | string> {
    const dir = o.dir ?? hooksDir();
    const why = ensurePrivateDir(dir);
    if (why) return why;
    const id = randomBytes(12).toString('hex');
    const address = process.platform === 'win32' ? `\\\\.\\pipe\\zut-hooks-${id}` : path.join(dir, `${id}.sock`);
    const server = await listenLocal(address);
    const token = randomBytes(32);
    const kind = o.warmFile ? 'warm' : 'window';
    const files = o.warmFile ? [o.warmFile] : folders.map((f) => windowFile(dir, f, id));
    const started = processStart(process.pid);
    folders.forEach((folder, i) => {
      const r: Rendezvous = { kind, address, token: token.toString('hex'), pid: process.pid, folder: realFolder(folder), ...(started !== undefined && { started }) };
      if (files[i]) writeRendezvous(files[i], r, id);
    });
    return new HookServer(server, address, token, files, host, o);
  }

  private accept(s: net.Socket): void {
    this.sockets.add(s);
    s.on('close', () => this.sockets.delete(s));
    s.on('error', () => s.destroy());
    readFirstLine(s, REQUEST_MAX_BYTES, this.o.requestMs ?? HOOK_REQUEST_MS, (line) => void this.serve(s, line.toString('utf8')));
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
    this.o.onRequest?.();
    const event = HOOK_AGENTS.includes(req.agent as HookAgent) ? hookEventOf(req.event, req.agent as HookAgent) : undefined;
    const agent = req.agent as HookAgent;
    let answer: HookAnswer;
    if (!event || !HOOK_AGENTS.includes(agent)) answer = { stdout: '', stderr: `zut: unknown hook ${req.agent} ${req.event}\n`, exitCode: 1 };
    else {
      const call: HookCall = { agent, event, camel: req.camel };
      const input = readHookInput(req.input, call);
      answer = typeof input === 'string' ? hookFailure(call, input) : await answerInTime(this.host, call, input, Math.min(req.budgetMs ?? hookBudgetMs(), HOOK_BUDGET_MS), this.memory);
    }
    s.end(JSON.stringify(answer) + '\n');
  }

  dispose(): void {
    // Only its own files: a file rewritten since by another listener (a newer warm host) is that one's.
    for (const f of this.files) if (readRendezvous(f)?.token === this.token.toString('hex')) fs.rmSync(f, { force: true });
    for (const s of this.sockets) s.destroy();
    this.server.close();
    if (process.platform !== 'win32') fs.rmSync(this.address, { force: true });
  }
}

/**
 * `answerHook` within `budgetMs`: past it, a PreToolUse is denied and any other event fails (failure.ts). `memory`:
 * the answerer's (a server's, for all its calls); a hook answering its one call by itself has a memory of its own,
 * whose files (callMemory.ts) are what the next process finds.
 */
export async function answerInTime(host: HookAnswerHost, call: HookCall, input: HookInput, budgetMs: number, memory = new CallMemory()): Promise<HookAnswer> {
  const deadline = Date.now() + budgetMs;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<HookAnswer>((resolve) => (timer = setTimeout(() => resolve(lateAnswer(call, 'zut', budgetMs)), budgetMs)));
  try {
    return await Promise.race([
      answerHook(host, call, input, deadline - Math.min(HOOK_DOOR_MARGIN_MS, budgetMs / 4), memory).catch((e: unknown) => hookFailure(call, e instanceof Error ? e.message : String(e))),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
