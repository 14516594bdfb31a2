/**
 * `zut-host ext logs NAME [-f]`: zut's `zut ext logs` — print the extension's stderr log
 * (`$ZUT_HOME/logs/ext-<name>.log`, the file the host appends to for every ecosystem), and with `-f` keep printing
 * what is appended until Ctrl+C (exit 130, as every interrupted zut-host command). A log that is truncated or
 * replaced is read again from its start. The log is the extension's output: control characters are escaped.
 */
import { promises as fs } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { LOG_FOLLOW_POLL_MS } from '../protocol/limits';
import { sanitizeText } from '../host/terminalText';
import { logPathFor, resolveZutHome } from '../host/disk/paths';
import { EXIT, write } from './common';
import { installed, named, oneName, type ExtValues } from './extCommon';

/** Turns raw log bytes into sanitized text, whole lines at a time (a partial line waits for its end or `flush`). */
class LogPrinter {
  private readonly decoder = new StringDecoder('utf8');
  private partial = '';

  async push(chunk: Buffer): Promise<void> {
    const text = this.partial + this.decoder.write(chunk);
    const cut = text.lastIndexOf('\n');
    this.partial = text.slice(cut + 1);
    if (cut >= 0) await write(process.stdout, sanitizeText(text.slice(0, cut + 1)));
  }

  async flush(): Promise<void> {
    const rest = this.partial + this.decoder.end();
    this.partial = '';
    if (rest !== '') await write(process.stdout, sanitizeText(rest));
  }
}

/** Prints `file` from byte `from` to its current end; resolves with the new offset. */
async function printFrom(file: string, from: number, out: LogPrinter): Promise<number> {
  const fh = await fs.open(file, 'r');
  try {
    const buf = Buffer.alloc(64 * 1024); // a read buffer, not a limit: any size works
    let pos = from;
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) return pos;
      pos += bytesRead;
      await out.push(buf.subarray(0, bytesRead));
    }
  } finally {
    await fh.close();
  }
}

async function statOf(file: string): Promise<{ size: number; ino: number } | undefined> {
  try {
    const st = await fs.stat(file);
    return { size: st.size, ino: st.ino };
  } catch {
    return undefined;
  }
}

export async function logs(v: ExtValues, positionals: string[]): Promise<number> {
  const name = oneName('logs', positionals);
  // The log is named after the manifest's name; a removed extension's log is still readable by that name.
  const known = named(await installed(v), name)[0]?.name ?? name;
  const file = logPathFor(resolveZutHome(), known);
  const out = new LogPrinter();
  const first = await statOf(file);
  if (!v.follow) {
    if (!first) throw new Error(`${known} has not written a log yet (${file})`);
    await printFrom(file, 0, out);
    await out.flush();
    return EXIT.ok;
  }
  if (!first) await write(process.stderr, sanitizeText(`zut-host: waiting for ${file}`) + '\n');
  let stopped = false;
  const stop = (): void => {
    stopped = true;
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    let offset = 0;
    let ino = first?.ino;
    while (!stopped) {
      const st = await statOf(file);
      if (st && (st.ino !== ino || st.size < offset)) {
        offset = 0; // replaced or truncated: read the new content from its start
        ino = st.ino;
      }
      if (st && st.size > offset) offset = await printFrom(file, offset, out);
      else await out.flush(); // nothing new: a line without its end is shown as is
      await new Promise((r) => setTimeout(r, LOG_FOLLOW_POLL_MS));
    }
    await out.flush();
    return EXIT.interrupted;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
