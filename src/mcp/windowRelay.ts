/**
 * `zut-host mcp --window`, the server of zut's agent plugin: it relays to the window whose host should serve it (found
 * through windowRendezvous.ts), so agent mode on the plugin's route gets that window's tools — project extensions the
 * user allowed, one running copy of each extension, its guards — exactly as the provider's relay (relay.ts) does. No
 * window published (the plugin's route is off there, or VS Code is gone), or its relay refuses: it serves by itself
 * with the CLI's own host (runMcpStdio: `$ZUT_HOME`'s extensions; a project's only with `--allow-project`), and says
 * so on stderr. The handshake has `RELAY_HANDSHAKE_MS` to be answered. VS Code-free.
 */
import * as net from 'node:net';
import { RELAY_HANDSHAKE_MAX_BYTES, RELAY_HANDSHAKE_MS } from '../protocol/limits';
import { encodeMessage } from './lines';
import { runMcpStdio, type McpStdioOptions } from './stdio';
import { findMcpWindow } from './windowRendezvous';

/** Connects to a window's relay and presents `token`; resolves with the socket once admitted, and what came after. */
export function connectRelay(address: string, token: string): Promise<{ socket: net.Socket; rest: Buffer }> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(address);
    let head = Buffer.alloc(0);
    const timer = setTimeout(() => fail(new Error(`no answer from the window's relay within ${RELAY_HANDSHAKE_MS} ms`)), RELAY_HANDSHAKE_MS);
    const fail = (e: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(e);
    };
    socket.on('error', fail);
    socket.on('connect', () => socket.write(encodeMessage({ token })));
    socket.on('close', () => fail(new Error("the window's relay closed the connection")));
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const nl = head.indexOf(10);
      if (nl < 0) {
        if (head.length > RELAY_HANDSHAKE_MAX_BYTES) fail(new Error("the window's relay answered something else"));
        return;
      }
      let reply: unknown;
      try {
        reply = JSON.parse(head.subarray(0, nl).toString('utf8'));
      } catch {
        reply = undefined;
      }
      if ((reply as { zut_relay?: unknown } | undefined)?.zut_relay !== 'ok') return fail(new Error("the window's relay refused the token"));
      clearTimeout(timer);
      socket.off('data', onData);
      socket.removeAllListeners('close');
      socket.removeAllListeners('error');
      socket.on('error', () => socket.destroy());
      resolve({ socket, rest: head.subarray(nl + 1) });
    };
    socket.on('data', onData);
  });
}

/** Copies stdin → socket and socket → stdout until either ends; resolves 0 when the socket is closed. */
function pipeRelay(socket: net.Socket, rest: Buffer, o: Required<Pick<McpStdioOptions, 'stdin' | 'stdout'>>): Promise<number> {
  return new Promise((resolve) => {
    if (rest.length) o.stdout.write(rest);
    socket.pipe(o.stdout, { end: false });
    o.stdin.pipe(socket);
    o.stdin.once('end', () => socket.end());
    socket.once('close', () => {
      o.stdin.unpipe(socket);
      resolve(0);
    });
  });
}

/** Serves through the window found for this process, else by itself. */
export async function runMcpViaWindow(o: McpStdioOptions & { hooksDir?: string; parentPid?: number }): Promise<number> {
  const stderr = o.stderr ?? process.stderr;
  const w = findMcpWindow(o.parentPid ?? process.ppid, o.cwd, o.hooksDir);
  if (w) {
    try {
      const { socket, rest } = await connectRelay(w.address, w.token);
      return await pipeRelay(socket, rest, { stdin: o.stdin ?? process.stdin, stdout: o.stdout ?? process.stdout });
    } catch (e) {
      stderr.write(`zut-host mcp --window: ${(e as Error).message} (window pid ${w.pid}); serving by itself\n`);
    }
  } else {
    stderr.write('zut-host mcp --window: no zut window published its relay for this folder; serving by itself\n');
  }
  return runMcpStdio(o);
}
