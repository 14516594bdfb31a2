/**
 * The steps a private local socket's server takes before it knows who connected, shared by the agent-mode relay's
 * (src/mcp/relayServer.ts) and the agent hooks' (src/hooks/server.ts): listening on an address (a Unix socket path
 * or a Windows pipe name), and reading a peer's first line — bounded in size and in time, since whoever can reach
 * the socket may connect before proving who it is. VS Code-free. It lives here, in the lower of its two users' floors
 * (src/mcp may import src/hooks, not the other way round).
 */
import * as net from 'node:net';

/** A server listening on `address`; rejects when it cannot (the address is taken, the directory is gone). */
export async function listenLocal(address: string): Promise<net.Server> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

/**
 * Calls `onLine` once with `socket`'s first line (without its newline) and the bytes that came after it in the same
 * chunk, then stops reading for it; a line longer than `maxBytes`, or none within `timeoutMs`, destroys the socket.
 */
export function readFirstLine(socket: net.Socket, maxBytes: number, timeoutMs: number, onLine: (line: Buffer, rest: Buffer) => void): void {
  const timer = setTimeout(() => socket.destroy(), timeoutMs);
  socket.once('close', () => clearTimeout(timer));
  const chunks: Buffer[] = [];
  let size = 0;
  const onData = (chunk: Buffer) => {
    const nl = chunk.indexOf(10);
    if (size + (nl < 0 ? chunk.length : nl) > maxBytes) {
      clearTimeout(timer);
      socket.destroy();
      return;
    }
    if (nl < 0) {
      chunks.push(chunk);
      size += chunk.length;
      return;
    }
    clearTimeout(timer);
    socket.off('data', onData);
    onLine(Buffer.concat([...chunks, chunk.subarray(0, nl)]), chunk.subarray(nl + 1));
  };
  socket.on('data', onData);
}
