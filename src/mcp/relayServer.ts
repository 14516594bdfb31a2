/**
 * The extension-host end of the agent-mode relay: a local socket (a Unix socket in a private 0700 directory; a named
 * pipe on Windows) that `dist/mcp-relay.js` connects to. A relay first sends `{"token":"…"}` (a random token handed
 * to it in env for that server start); a wrong or late token, or a first line over `RELAY_HANDSHAKE_MAX_BYTES`,
 * closes the socket. A token is single-use: it admits one relay (one per start), then is forgotten. After
 * `{"zut_relay":"ok"}` the socket carries MCP messages, served by an `McpConnection`. A relay that disconnects
 * cancels its calls in flight.
 * VS Code-free: one instance of each zut extension, the relay never spawns anything.
 */
import { randomBytes, createHash, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { DisposableMap, Emitter } from '../host/events';
import { listenLocal, readFirstLine } from '../hooks/localSocket';
import { LineDecoder, type DecodedLine } from '../protocol';
import { MAX_RELAY_TOKENS, MAX_MCP_MESSAGE_BYTES, RELAY_HANDSHAKE_MAX_BYTES, RELAY_HANDSHAKE_MS, RELAY_START_MS } from './limits';
import { dispatchLines, encodeMessage, readMessages } from './lines';
import { Outbox } from './outbox';
import { McpConnection, McpSessions, type McpBridgeOptions } from './server';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

export class RelayServer {
  private readonly tokens: Buffer[] = [];
  private standing: { token: string; digest: Buffer } | undefined;
  private readonly sockets = new Set<net.Socket>();
  /** The MCP connection of each relay socket that passed the handshake. */
  private readonly connections = new DisposableMap<net.Socket, McpConnection>();
  private readonly sessions: McpSessions;
  private readonly changed = new Emitter<number>();
  /** Starts whose relay has not connected yet (token digest in hex → its `RELAY_START_MS` timer). */
  private readonly pending = new Map<string, NodeJS.Timeout>();

  private constructor(
    private readonly server: net.Server,
    /** The socket path (or pipe name) relays connect to. */
    readonly address: string,
    private readonly dir: string | undefined,
    private readonly bridge: McpBridgeOptions,
  ) {
    this.sessions = new McpSessions(bridge.host, bridge.cwd);
    server.on('connection', (s) => this.accept(s));
  }

  /** Listens on a fresh private address. */
  static async listen(bridge: McpBridgeOptions): Promise<RelayServer> {
    let address: string;
    let dir: string | undefined;
    if (process.platform === 'win32') address = `\\\\.\\pipe\\zut-mcp-${randomBytes(12).toString('hex')}`;
    else {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zut-mcp-'));
      fs.chmodSync(dir, 0o700);
      address = path.join(dir, 'relay.sock');
    }
    return new RelayServer(await listenLocal(address), address, dir, bridge);
  }

  /**
   * A new random token for one server start (the oldest of more than `MAX_RELAY_TOKENS` stops working, and its start,
   * if still pending, stops counting in `liveCount`).
   */
  issueToken(): string {
    const token = randomBytes(32).toString('hex');
    const d = digest(token);
    this.tokens.push(d);
    const evicted = this.tokens.length > MAX_RELAY_TOKENS ? this.tokens.shift() : undefined;
    if (evicted) this.settle(evicted.toString('hex'));
    const key = d.toString('hex');
    const expire = () => {
      if (this.settle(key)) this.connectionsChanged();
    };
    this.pending.set(key, setTimeout(expire, RELAY_START_MS).unref());
    this.connectionsChanged();
    return token;
  }

  /**
   * The standing token: it admits any number of relays until `revokeStanding()` or `dispose()`, for the servers of
   * zut's agent plugin, which VS Code (or its Agent Host) starts from static files and which find it in the private
   * hooks directory (windowRendezvous.ts), not in env. Made once, on first ask.
   */
  standingToken(): string {
    if (!this.standing) {
      const token = randomBytes(32).toString('hex');
      this.standing = { token, digest: digest(token) };
    }
    return this.standing.token;
  }

  /** Ends the standing token (the plugin's route is off): relays already connected stay. */
  revokeStanding(): void {
    this.standing = undefined;
  }

  /** Relays connected and authenticated now. */
  get connectionCount(): number {
    return this.connections.size;
  }

  /**
   * Relays connected and authenticated now, plus starts still expected to connect (a token issued less than
   * `RELAY_START_MS` ago and not used yet): the servers VS Code has running or starting.
   */
  get liveCount(): number {
    return this.connections.size + this.pending.size;
  }

  /** Forgets a start still expected to connect (clears its timer); false if it was not pending. Fires nothing. */
  private settle(key: string): boolean {
    const t = this.pending.get(key);
    if (!t) return false;
    clearTimeout(t);
    this.pending.delete(key);
    return true;
  }

  /** Fires with `liveCount` whenever a start is asked for, a relay is authenticated or goes away. */
  readonly onDidChangeConnections = this.changed.event;

  private connectionsChanged(): void {
    this.changed.fire(this.liveCount);
  }

  /** Every connected relay hears `tools/list_changed` if its list changed (e.g. after a setting change). */
  refresh(): void {
    for (const c of this.connections.values()) c.checkListChanged();
  }

  /** Whether `token` is a live one; a match is used up (single-use: one relay per start). */
  private redeem(token: unknown): boolean {
    if (typeof token !== 'string' || token === '') return false;
    const d = digest(token);
    if (this.standing && timingSafeEqual(this.standing.digest, d)) return true;
    // Every entry is compared (constant time per entry), whichever matches.
    const at = this.tokens.reduce((hit, t, i) => (timingSafeEqual(t, d) ? i : hit), -1);
    if (at < 0) return false;
    this.tokens.splice(at, 1);
    // No event here: the start becomes a connection in serve(), which fires with the same liveCount.
    this.settle(d.toString('hex'));
    return true;
  }

  private accept(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    // Before it is authenticated a peer may make us hold one short line, no more.
    readFirstLine(socket, RELAY_HANDSHAKE_MAX_BYTES, RELAY_HANDSHAKE_MS, (line, rest) => {
      let token: unknown;
      try {
        token = (JSON.parse(line.toString('utf8')) as { token?: unknown } | null)?.token;
      } catch {
        token = undefined;
      }
      if (!this.redeem(token)) {
        socket.end(encodeMessage({ zut_relay: 'refused' }));
        return;
      }
      socket.write(encodeMessage({ zut_relay: 'ok' }));
      // Bytes that came with the handshake line are the first MCP messages (the decoder keeps a partial one).
      const decoder = new LineDecoder(MAX_MCP_MESSAGE_BYTES);
      this.serve(socket, decoder, decoder.push(rest));
    });
  }

  private serve(socket: net.Socket, decoder: LineDecoder, early: DecodedLine[]): void {
    // Written with backpressure, progress coalesced (outbox.ts); a relay that stops reading is disconnected.
    const outbox = new Outbox(socket, () => socket.destroy());
    const send = (m: object) => {
      if (!socket.destroyed) outbox.send(m);
    };
    const conn = new McpConnection(this.bridge, this.sessions, send);
    this.connections.set(socket, conn);
    this.connectionsChanged();
    socket.on('close', () => {
      this.connections.deleteAndDispose(socket);
      this.connectionsChanged();
    });
    // Lines that came with the handshake chunk go first; the decoder keeps any partial line that followed them.
    dispatchLines(early, (m) => conn.handle(m), send);
    readMessages(socket, (m) => conn.handle(m), send, decoder);
  }

  /** Closes every relay connection (their calls are cancelled) and the socket, and removes the private directory. */
  async dispose(): Promise<void> {
    this.standing = undefined;
    this.changed.dispose();
    for (const t of this.pending.values()) clearTimeout(t);
    this.pending.clear();
    this.connections.dispose();
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
    if (this.dir) fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
