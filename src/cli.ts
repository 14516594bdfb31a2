#!/usr/bin/env node
/**
 * `zut-host`: the headless host CLI. It runs the same discovery → spawn → handshake path as the VS Code
 * extension (the Manager), then reports or makes one request, and always shuts every extension down.
 * One module per subcommand in src/cli/ (`mcp`: an MCP server over stdio, src/mcp/stdio.ts); the usage text is in
 * src/cli/common.ts.
 *
 * Like `zut --ext`, the `--ext` directories are loaded in addition to (and win over) the project extensions of
 * `--cwd` and the global ones of `$ZUT_HOME`. Exit codes: 0 ok; 1 an extension/request error (doctor: any
 * extension in error; command: a response with a non-empty `error`); 2 usage; 130 interrupted.
 */
import { command, tool } from './cli/request';
import { doctor } from './cli/doctor';
import { ext, EXT_USAGE } from './cli/ext';
import { EXIT, Interrupted, parse, UsageError, USAGE, VERSION, write } from './cli/common';
import { hook } from './cli/hook';
import { mcp } from './cli/mcp';
import { newExtension } from './cli/new';
import { trace } from './cli/trace';
import { takeLauncherEnv } from './agentSetup/launcher';
import { quietBrokenPipes } from './hooks/brokenPipe';
import { sanitizeText } from './host/terminalText';
import { RequestError } from './host/types';

const SUBCOMMANDS: Record<string, (p: ReturnType<typeof parse>) => Promise<number>> = {
  doctor,
  command,
  tool,
  new: newExtension,
  trace,
  mcp,
  hook,
};

async function main(argv: string[]): Promise<number> {
  takeLauncherEnv(); // before any child is spawned: none inherits the launcher's variable
  quietBrokenPipes(); // `zut-host … | head -1`: the rest of the output goes nowhere, the command still finishes
  try {
    // `ext` has its own verbs and options (src/cli/ext.ts).
    if (argv[0] === 'ext') return await ext(argv.slice(1));
    const p = parse(argv);
    if (p.values.version) {
      await write(process.stdout, `zut-host ${VERSION}\n`);
      return EXIT.ok;
    }
    const sub = p.positionals[0];
    if (p.values.help || sub === undefined || sub === 'help') {
      await write(sub === undefined && !p.values.help ? process.stderr : process.stdout, USAGE);
      return sub === undefined && !p.values.help ? EXIT.usage : EXIT.ok;
    }
    const run = Object.prototype.hasOwnProperty.call(SUBCOMMANDS, sub) ? SUBCOMMANDS[sub] : undefined;
    if (!run) throw new UsageError(`unknown subcommand "${sub}"`);
    return await run(p);
  } catch (e) {
    if (e instanceof UsageError) {
      await write(process.stderr, `zut-host: ${e.message}\n\n${argv[0] === 'ext' && argv[1] !== 'doctor' ? EXT_USAGE : USAGE}`);
      return EXIT.usage;
    }
    if (e instanceof Interrupted) return EXIT.interrupted;
    const msg = e instanceof RequestError ? `${e.kind}: ${e.message}` : e instanceof Error ? e.message : String(e);
    await write(process.stderr, sanitizeText(`zut-host: ${msg}`) + '\n');
    return EXIT.error;
  }
}

// Exit explicitly once output is flushed and every extension stopped: nothing may keep the CLI alive.
void main(process.argv.slice(2)).then((code) => process.exit(code));
