/**
 * Newline-delimited JSON-RPC over a byte stream (MCP spec: stdio transport; our relay socket uses the same
 * framing): lines in → parsed messages, messages out → lines. Over-long and unparsable lines get a JSON-RPC
 * parse error, never a crash. VS Code-free.
 */
import type { Readable } from 'node:stream';
import { LineDecoder, type DecodedLine } from '../protocol';
import { MAX_MCP_MESSAGE_BYTES, RPC } from './limits';

/** Encodes one message as a line. */
export function encodeMessage(message: object): string {
  return JSON.stringify(message) + '\n';
}

/** Parses decoded lines into messages for `onMessage`; over-long or unparsable lines get a parse error via `send`. */
export function dispatchLines(lines: DecodedLine[], onMessage: (message: unknown) => void, send: (message: object) => void): void {
  const parseError = (message: string) => send({ jsonrpc: '2.0', id: null, error: { code: RPC.parseError, message } });
  for (const d of lines) {
    if ('overflow' in d) {
      parseError(`message over ${MAX_MCP_MESSAGE_BYTES} bytes refused`);
      continue;
    }
    let msg: unknown;
    try {
      msg = JSON.parse(d.line);
    } catch (e) {
      parseError(`invalid JSON: ${(e as Error).message}`);
      continue;
    }
    onMessage(msg);
  }
}

/** Feeds `input`'s lines to `onMessage` through `decoder` (which may hold bytes already read). */
export function readMessages(
  input: Readable,
  onMessage: (message: unknown) => void,
  send: (message: object) => void,
  decoder = new LineDecoder(MAX_MCP_MESSAGE_BYTES),
): void {
  input.on('data', (chunk: Buffer) => dispatchLines(decoder.push(chunk), onMessage, send));
}
