/**
 * `dist/mcp-relay.js`: the MCP stdio server VS Code starts for agent mode (through our server definition). It
 * owns nothing: it connects to the running extension host's relay socket (`ZUT_MCP_SOCKET`), presents the token
 * of this start (`ZUT_MCP_TOKEN`), then copies stdin → socket and socket → stdout. It never spawns an extension
 * (each runs once, in the extension host). Node built-ins, the reply's reader (relayReply.ts) and one limit only: bundled on its own.
 * Exit codes: 0 stdin or the socket closed; 1 no socket/token, connection failed or refused.
 */
import * as net from 'node:net';
import { RELAY_HANDSHAKE_MAX_BYTES } from '../protocol/limits';
import { readRelayReply } from './relayReply';

const socketPath = process.env.ZUT_MCP_SOCKET;
const token = process.env.ZUT_MCP_TOKEN;

function fail(message: string): void {
  process.stderr.write(`zut mcp relay: ${message}\n`);
  process.exit(1);
}

function main(): void {
  if (!socketPath || !token) return fail('ZUT_MCP_SOCKET and ZUT_MCP_TOKEN must be set (VS Code sets them when it starts this server)');
  const socket = net.createConnection(socketPath);
  let open = false;
  let head = Buffer.alloc(0);
  socket.on('connect', () => socket.write(JSON.stringify({ token }) + '\n'));
  socket.on('error', (e) => fail(`${socketPath}: ${e.message}`));
  socket.on('close', () => (open ? process.exit(0) : fail('the extension host closed the connection (token refused?)')));
  const onHead = (chunk: Buffer) => {
    head = Buffer.concat([head, chunk]);
    const r = readRelayReply(head, RELAY_HANDSHAKE_MAX_BYTES);
    if (r.state === 'more') return;
    if (r.state === 'too-long') return fail('unexpected reply from the extension host');
    if (r.state === 'refused') return fail('the extension host refused the token');
    open = true;
    socket.off('data', onHead);
    const rest = r.rest;
    if (rest.length) process.stdout.write(rest);
    socket.pipe(process.stdout);
    process.stdin.pipe(socket);
  };
  socket.on('data', onHead);
  // stdin EOF (VS Code stopped the server): end our side; the socket's close exits.
  process.stdin.on('end', () => socket.end());
  process.on('SIGTERM', () => {
    socket.destroy();
    process.exit(0);
  });
}

main();
