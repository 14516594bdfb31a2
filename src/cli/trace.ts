/**
 * `zut-host trace --ext DIR [command NAME ARGS… | tool NAME 'JSON']`: runs that one extension (never a project or
 * global one, so it needs no `--allow-project`) and prints every frame both ways on stdout (`-> ` host to extension, `<- ` extension to host),
 * its stderr as `stderr: …`, and host diagnostics as `host: …`. Without a request it stops after the handshake
 * when stdin is not a terminal, else on Ctrl+C or end of input. Exit 1 when it failed to load or the request failed.
 */
import { sanitizeText } from '../host/terminalText';
import { cliSession, cwdOf, EXIT, reportLoadErrors, UsageError, withHost, write, type Parsed } from './common';

const PREFIX = { in: '<- ', out: '-> ', stderr: 'stderr: ', host: 'host: ' } as const;

export async function trace(p: Parsed): Promise<number> {
  if ((p.values.ext ?? []).length !== 1) throw new UsageError('trace needs exactly one --ext DIR');
  const [, what, name, ...rest] = p.positionals;
  if (what !== undefined && what !== 'command' && what !== 'tool') throw new UsageError('trace runs an optional "command NAME ARGS..." or "tool NAME JSON"');
  if (what && !name) throw new UsageError(`trace ${what} needs a NAME`);
  let toolArgs: unknown = {};
  if (what === 'tool' && rest.length > 0) {
    try {
      toolArgs = JSON.parse(rest.join(' '));
    } catch (e) {
      throw new UsageError(`tool arguments are not valid JSON: ${(e as Error).message}`);
    }
  }
  cwdOf(p); // hello_ack.cwd is --cwd: withHost enters it (no folders are loaded: the Manager sends its own cwd)
  return withHost(
    p,
    async (host, load) => {
      await reportLoadErrors(load);
      if (load.errors.length > 0 || load.ready.length === 0) return EXIT.error;
      if (what === 'command') {
        const r = await host.invokeCommand(name!, rest.join(' '));
        return r.action === 'error' || r.error ? EXIT.error : EXIT.ok;
      }
      // The one guarded path (event, guards, call), as `zut-host tool` takes: the trace shows the guards' frames too.
      if (what === 'tool') return (await host.invokeTool(name!, toolArgs, { session: cliSession(p), origin: 'cli' })).isError ? EXIT.error : EXIT.ok;
      if (process.stdin.isTTY) {
        await write(process.stderr, 'zut-host: tracing; Ctrl+C or Ctrl+D stops\n');
        await new Promise<void>((resolve) => {
          process.stdin.on('end', resolve).resume();
        });
      }
      return EXIT.ok;
    },
    {
      options: { folders: [], globalExtensions: false, trace: 'verbose' },
      onHost: (host) =>
        host.onDidLog((l) => {
          process.stdout.write(sanitizeText(PREFIX[l.kind] + l.text) + '\n');
        }),
    },
  );
}
