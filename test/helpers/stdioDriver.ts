/**
 * A tiny test driver for zut extensions: spawns one from its manifest (cwd = its directory), validates every
 * stdout line with the protocol's own parser, and lets a test send host frames and await extension frames.
 * Every driver started is tracked; call `killAll()` in `afterEach` so no child outlives its test. `onJsonLines` is the
 * NDJSON reader the MCP tests share.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  LineDecoder,
  PROTOCOL_VERSION,
  encodeFrame,
  parseExtFrame,
  type ExtFrame,
  type ExtFrameOf,
  type ExtFrameType,
  type HostFrame,
} from '../../src/protocol';

/** Where the example extensions live in the repository. */
export const EXAMPLES_DIR = resolve(__dirname, '../../examples/workspace/.zut/extensions');

/** The manifest fields the driver needs (see the spec's extension.json table). */
export interface Manifest {
  name: string;
  version?: string;
  exec: string;
  args?: string[];
  language?: string;
  description?: string;
  skills?: string[];
  enabled?: boolean;
}

export function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'extension.json'), 'utf8')) as Manifest;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const live = new Set<StdioDriver>();
const tempDirs = new Set<string>();

/** One running extension process. */
export class StdioDriver {
  /** Every valid frame received, in arrival order (consumed or not). */
  readonly frames: ExtFrame[] = [];
  /** stdout lines that were not valid frames; any entry fails pending and later `next` calls. */
  readonly problems: string[] = [];
  /** Everything the extension wrote to stderr. */
  stderr = '';
  /** Resolves when the process has exited. */
  readonly exited: Promise<Exit>;
  exit: Exit | undefined;

  private readonly queue: ExtFrame[] = [];
  private readonly waiters = new Set<() => void>();
  private readonly decoder = new LineDecoder();

  private constructor(
    readonly dir: string,
    readonly manifest: Manifest,
    private readonly child: ChildProcessWithoutNullStreams,
  ) {
    child.stdout.on('data', (chunk: Buffer) => {
      for (const d of this.decoder.push(chunk)) {
        if ('overflow' in d) {
          this.problems.push(`over-long stdout line (${d.overflow} bytes)`);
          continue;
        }
        const r = parseExtFrame(d.line);
        if (r.ok) {
          this.frames.push(r.frame);
          this.queue.push(r.frame);
        } else {
          this.problems.push(`${r.error.message}: ${d.line.slice(0, 200)}`);
        }
      }
      this.wake();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString('utf8');
      this.wake();
    });
    child.stdin.on('error', () => undefined); // writing to a child that already exited is reported via `exited`
    this.exited = new Promise((res) => {
      child.on('exit', (code, signal) => {
        this.exit = { code, signal };
        live.delete(this);
        this.wake();
        res(this.exit);
      });
    });
  }

  /** Spawns the extension in `dir` from its extension.json, like a host would. */
  static start(dir: string, env: Record<string, string> = {}): StdioDriver {
    const manifest = readManifest(dir);
    const child = spawn(resolve(dir, manifest.exec), manifest.args ?? [], {
      cwd: dir,
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const driver = new StdioDriver(dir, manifest, child);
    live.add(driver);
    return driver;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Writes one host frame. */
  send(frame: HostFrame): void {
    this.child.stdin.write(encodeFrame(frame));
  }

  /** Closes the extension's stdin (the host went away). */
  closeStdin(): void {
    this.child.stdin.end();
  }

  /** Frames received but not yet consumed by `next`/`nextFrame`. */
  get pending(): readonly ExtFrame[] {
    return this.queue;
  }

  /** Consumes and returns the earliest unconsumed frame of `type` (matching `match`, if given). */
  next<K extends ExtFrameType>(type: K, timeoutMs = 5000, match?: (f: ExtFrameOf<K>) => boolean): Promise<ExtFrameOf<K>> {
    return this.waitFor(`a "${type}" frame`, timeoutMs, () => {
      const i = this.queue.findIndex((f) => f.type === type && (!match || match(f as ExtFrameOf<K>)));
      return i === -1 ? undefined : (this.queue.splice(i, 1)[0] as ExtFrameOf<K>);
    });
  }

  /** Consumes and returns the earliest unconsumed frame, whatever its type. */
  nextFrame(timeoutMs = 5000): Promise<ExtFrame> {
    return this.waitFor('any frame', timeoutMs, () => this.queue.shift());
  }

  /** Consumes the next `n` frames, in order. */
  async take(n: number, timeoutMs = 5000): Promise<ExtFrame[]> {
    const out: ExtFrame[] = [];
    for (let i = 0; i < n; i++) out.push(await this.nextFrame(timeoutMs));
    return out;
  }

  /** Waits until stderr matches `re`; returns the match. */
  waitForStderr(re: RegExp, timeoutMs = 5000): Promise<RegExpMatchArray> {
    return this.waitFor(`stderr matching ${re}`, timeoutMs, () => this.stderr.match(re) ?? undefined, true);
  }

  /** Waits for the process to exit. */
  waitExit(timeoutMs = 5000): Promise<Exit> {
    return this.waitFor('process exit', timeoutMs, () => this.exit, true);
  }

  /** Kills the process (SIGKILL) if it is still running, and waits for it. */
  async kill(): Promise<void> {
    if (!this.exit) this.child.kill('SIGKILL');
    await this.exited;
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }

  private waitFor<T>(what: string, timeoutMs: number, poll: () => T | undefined, afterExit = false): Promise<T> {
    return new Promise<T>((res, rej) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      const fail = (why: string): void => {
        done();
        const log = this.stderr.trim() ? `\n--- stderr of ${this.manifest.name} ---\n${this.stderr.trim()}` : '';
        rej(new Error(`${this.manifest.name}: waiting for ${what}: ${why}${log}`));
      };
      const check = (): void => {
        if (this.problems.length) return fail(`invalid stdout: ${this.problems.join('; ')}`);
        const v = poll();
        if (v !== undefined) {
          done();
          res(v);
        } else if (this.exit && !afterExit) {
          fail(`process exited (code ${this.exit.code}, signal ${this.exit.signal})`);
        }
      };
      const timer = setTimeout(() => fail(`timed out after ${timeoutMs} ms`), timeoutMs);
      this.waiters.add(check);
      check();
    });
  }
}

/** A hello_ack as the host would send it (protocol v2); `data_dir`/`extension_dir` default to the driver's dir. */
export function helloAck(driver: StdioDriver, overrides: Partial<Extract<HostFrame, { type: 'hello_ack' }>> = {}): HostFrame {
  return {
    type: 'hello_ack',
    protocol_version: PROTOCOL_VERSION,
    zut_version: 'test',
    provider: 'test-provider',
    model: 'test-model',
    cwd: driver.dir,
    extension_dir: driver.dir,
    data_dir: driver.dir,
    ...overrides,
  };
}

export interface Handshake {
  hello: ExtFrameOf<'hello'>;
  /** Frames between hello_ack and ready (registrations and subscriptions), in order. */
  registrations: ExtFrame[];
}

/** Runs the startup order: expects `hello` first, sends hello_ack, collects frames up to `ready`. */
export async function handshake(driver: StdioDriver, ack: HostFrame = helloAck(driver)): Promise<Handshake> {
  const first = await driver.nextFrame();
  if (first.type !== 'hello') throw new Error(`${driver.manifest.name}: first frame is "${first.type}", not "hello"`);
  driver.send(ack);
  const registrations: ExtFrame[] = [];
  for (;;) {
    const f = await driver.nextFrame();
    if (f.type === 'ready') break;
    registrations.push(f);
  }
  return { hello: first, registrations };
}

/** Copies an example extension into a fresh temp dir (so tests never write into the repo); returns its path. */
export function copyExample(name: string): string {
  const root = mkdtempSync(join(tmpdir(), `zut-example-${name}-`));
  tempDirs.add(root);
  const dir = join(root, name);
  // State a developer's manual run may have left beside the manifest (e.g. todos.json) is not copied.
  cpSync(join(EXAMPLES_DIR, name), dir, { recursive: true, filter: (src) => !/todos\.json/.test(src) });
  return dir;
}

/** Kills every driver still running and removes the temp copies. Use in `afterEach`. */
export async function killAll(): Promise<void> {
  await Promise.all([...live].map((d) => d.kill()));
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

/**
 * The NDJSON reader the MCP tests share: every complete line `stream` sends, parsed as JSON, to `handle` in order
 * (a partial line waits for the rest).
 */
export function onJsonLines(stream: NodeJS.EventEmitter, handle: (message: Record<string, unknown>) => void): void {
  let buf = '';
  stream.on('data', (d: Buffer) => {
    buf += d.toString();
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      const m = JSON.parse(buf.slice(0, i)) as Record<string, unknown>;
      buf = buf.slice(i + 1);
      handle(m);
    }
  });
}
