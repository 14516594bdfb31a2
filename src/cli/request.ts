/**
 * `zut-host command` and `zut-host tool`: one request through the Manager, its reply as JSON on stdout.
 * Exit 1 when the reply is an error (a command response with a non-empty `error`, whatever its action; a tool
 * result with `is_error`), when a panel opens without `--keys`, or on a timeout/crash.
 */
import { promises as fs } from 'node:fs';
import type { HostCalls, HostCatalog } from '../host/api';
import { activeSkills, SKILL_TOOL_NAME } from '../host/chat/skills';
import { sanitizeText } from '../host/terminalText';
import { planResponse } from '../ui-model/commandModel';
import { cliSession, EXIT, heldScan, reportLoadErrors, UsageError, withHost, write, type Parsed } from './common';
import { heldHint } from './project';
import { parseKeys, parseKeysFile, type KeyPress } from './keys';
import { CliUi, PanelNeedsKeys } from './ui';

/** The `--keys` / `--keys-file` presses, or undefined. */
async function keysOf(p: Parsed): Promise<KeyPress[] | undefined> {
  const inline = p.values.keys;
  const file = p.values['keys-file'];
  if (inline !== undefined && file !== undefined) throw new UsageError('give --keys or --keys-file, not both');
  try {
    if (inline !== undefined) return parseKeys(inline);
    if (file !== undefined) {
      let text: string;
      try {
        text = await fs.readFile(file, 'utf8');
      } catch (e) {
        throw new Error(`--keys-file: ${(e as Error).message}`);
      }
      return parseKeysFile(text);
    }
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return undefined;
}

/**
 * Runs `request` with a CLI UI: fails at once when a panel opens without keys; with keys, waits for the panels
 * it opened to close (up to the request's timeout) before returning.
 */
async function withPanels(p: Parsed, timeoutMs: number, request: (host: HostCatalog & HostCalls, ui: CliUi) => Promise<number>): Promise<number> {
  const keys = await keysOf(p);
  const ui = new CliUi({ quiet: p.values.quiet ?? false, keys });
  return withHost(
    p,
    async (host, load) => {
      await reportLoadErrors(load);
      const pending = request(host, ui);
      pending.catch(() => undefined); // a panel may fail the call first; the request is then abandoned
      try {
        const result = await Promise.race([pending, ui.panelWithoutKeys]);
        if (!keys && ui.opened > 0) await ui.panelWithoutKeys; // a panel in a command's response: rejects
        if (keys && ui.openPanels().length > 0) {
          let timer: NodeJS.Timeout | undefined;
          const waited = await Promise.race([
            ui.allClosed().then(() => true),
            new Promise<boolean>((r) => (timer = setTimeout(() => r(false), timeoutMs))),
          ]);
          clearTimeout(timer);
          if (!waited) {
            await write(process.stderr, sanitizeText(`zut-host: panel ${ui.openPanels().join(', ')} still open after the keys were sent`) + '\n');
            return EXIT.error;
          }
        }
        return result;
      } catch (e) {
        if (e instanceof PanelNeedsKeys) {
          await write(process.stderr, sanitizeText(`zut-host: ${e.message}`) + '\n');
          return EXIT.error;
        }
        throw e;
      }
    },
    { ui, onHost: (h) => ui.attach(h) },
  );
}

export async function command(p: Parsed): Promise<number> {
  const [, name, ...rest] = p.positionals;
  if (!name) throw new UsageError('command needs a NAME');
  return withPanels(p, Number(p.values.timeout ?? 30_000), async (host, ui) => {
    if (!host.commands().some((c) => c.name.toLowerCase() === name.toLowerCase())) {
      const known = host.commands().map((c) => c.name).join(', ') || 'none';
      await write(process.stderr, sanitizeText(`zut-host: no command "${name}" (registered: ${known}${await heldHint(heldScan(p))})`) + '\n');
      return EXIT.error;
    }
    const response = await host.invokeCommand(name, rest.join(' ').trim());
    // zot's tool_prompt: the tool runs through the guarded path (there is no model here: the prompt is printed).
    const plan = planResponse(response);
    const toolResult =
      plan.action.kind === 'tool_prompt'
        ? await host.invokeTool(plan.action.tool, plan.action.args, { session: cliSession(p), origin: 'cli', answersPanels: ui.hasKeys })
        : undefined;
    await write(process.stdout, JSON.stringify(toolResult ? { ...response, tool_result: toolResult } : response, null, 2) + '\n');
    if (response.error) await write(process.stderr, sanitizeText(`zut-host: /${name}: ${response.error}`) + '\n');
    // A panel in the response opens like a spontaneous one (keys, or a failure without them).
    if (response.open_panel) ui.openPanel(response.ext, response.open_panel);
    return response.action === 'error' || (response.error ?? '') !== '' || toolResult?.isError ? EXIT.error : EXIT.ok;
  });
}

export async function tool(p: Parsed): Promise<number> {
  const [, name, json, ...extra] = p.positionals;
  if (!name) throw new UsageError('tool needs a NAME');
  if (extra.length > 0) throw new UsageError(`tool takes NAME and one JSON argument (quote it)`);
  let args: unknown = {};
  if (json !== undefined) {
    try {
      args = JSON.parse(json);
    } catch (e) {
      throw new UsageError(`tool arguments are not valid JSON: ${(e as Error).message}`);
    }
    if (args === null || typeof args !== 'object' || Array.isArray(args)) throw new UsageError('tool arguments must be a JSON object');
  }
  return withPanels(p, Number(p.values.timeout ?? 60_000), async (host, ui) => {
    const info = host.allTools().find((t) => t.name === name);
    // `skill` is the host's own tool while running extensions bundle skills (src/host/chat/skills.ts).
    const hostSkill = !info && name.toLowerCase() === SKILL_TOOL_NAME && activeSkills(host).length > 0;
    if (!info && !hostSkill) {
      const known = host.allTools().map((t) => t.name).join(', ') || 'none';
      await write(process.stderr, sanitizeText(`zut-host: no tool "${name}" (registered: ${known}${await heldHint(heldScan(p))})`) + '\n');
      return EXIT.error;
    }
    if (info?.interactive && !ui.hasKeys) {
      // Headless, an interactive tool is refused (spec) unless the keys for its panel are given.
      await write(process.stderr, sanitizeText(`zut-host: tool ${name} is interactive (it waits for a person in a panel): pass the answers with --keys (e.g. --keys 'y') or --keys-file FILE`) + '\n');
      return EXIT.error;
    }
    // The one guarded tool path (event, guards, call), in a session of its own.
    const onProgress = (text: string): void => ui.progress(info?.ext ?? 'zut', text);
    const result = await host.invokeTool(name, args, { session: cliSession(p), origin: 'cli', answersPanels: ui.hasKeys, onProgress });
    await write(process.stdout, JSON.stringify(result, null, 2) + '\n');
    return result.isError ? EXIT.error : EXIT.ok;
  });
}
