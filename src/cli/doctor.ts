/**
 * `zut-host doctor`: what the host sees (text or --json), the project's own extensions it did not start (without
 * `--allow-project`: project.ts), and the warm hook hosts running (hookHost.ts), and Claude Code's mcp_tool hooks that would block every call for want of zut's
 * MCP server (agentSetup/claudeMcp.ts), and every other agent's set-up (agentSetup/agents: installed, and whether the agent will run
 * it); exit 1 when any extension is in error or such hooks are found.
 */
import { buildDoctorReport, doctorHasErrors, doctorJson, doctorText } from '../host/disk/doctor';
import { EXIT, heldScan, UsageError, withHost, write, type Parsed } from './common';
import { heldEntry, heldExtensions } from './project';
import { warmHosts } from './hookHost';
import { claudeMcpHookGaps } from '../agentSetup/claudeMcp';
import { agentChecks } from '../agentSetup/agents/checks';
import { cliInstallation } from './hookInstall';
import * as os from 'node:os';

export async function doctor(p: Parsed): Promise<number> {
  if (p.positionals.length > 1) throw new UsageError(`doctor takes no arguments`);
  return withHost(p, async (host, load) => {
    const report = buildDoctorReport(host.extensions(), load.errors);
    const scan = heldScan(p);
    if (scan) report.extensions.push(...(await heldExtensions(scan)).map((d) => heldEntry(d, scan.zutHome)));
    const gaps = await claudeMcpHookGaps({ home: os.homedir(), workspace: p.values.cwd ?? process.cwd() });
    // Every other agent: what is installed, and hooks it will not run (a guard silently skipped).
    const agents = await agentChecks(cliInstallation(p));
    if (gaps.length + agents.problems.length > 0) report.hookProblems = [...gaps, ...agents.problems];
    report.hooks = [...agents.lines, ...(await warmHosts()).map(({ r }) => `warm hook host: pid ${r.pid} for ${r.folder} (zut-host hook host stop ends it)`)];
    await write(process.stdout, p.values.json ? doctorJson(report) : doctorText(report));
    return doctorHasErrors(report) ? EXIT.error : EXIT.ok;
  });
}
