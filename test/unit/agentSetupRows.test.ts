// The set-up rows' shared parts: whether an agent is on this machine (PATH, its home directory), and the doctor's
// lines and problems from every row's check (an installed hook the agent will not run is a problem, never silent).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentOnMachine } from '../../src/agentSetup/agents/found';
import { agentChecks } from '../../src/agentSetup/agents/checks';
import type { AgentSetupRow, SetupCheck } from '../../src/agentSetup/agents';
import type { Installation } from '../../src/agentSetup/hookInstall';
import { tempDir } from '../helpers/temp';

describe('agent set-up rows', () => {
  it('an agent is found by its command on PATH or its directory in the home, else not', () => {
    const home = tempDir('zut-home-');
    const bin = tempDir('zut-bin-');
    expect(agentOnMachine('codex', ['.codex'], home, { PATH: bin }, 'linux')).toBe(false);
    fs.writeFileSync(path.join(bin, 'codex'), '#!/bin/sh\n', { mode: 0o755 });
    expect(agentOnMachine('codex', ['.codex'], home, { PATH: `/nowhere:${bin}` }, 'linux')).toBe(true);
    expect(agentOnMachine('gemini', ['.gemini'], home, { PATH: bin }, 'linux')).toBe(false);
    fs.mkdirSync(path.join(home, '.gemini'));
    expect(agentOnMachine('gemini', ['.gemini'], home, { PATH: '' }, 'linux')).toBe(true);
    fs.writeFileSync(path.join(bin, 'cline.CMD'), '');
    expect(agentOnMachine('cline', [], home, { Path: bin, PATHEXT: '.EXE;.CMD' }, 'win32')).toBe(true);
  });

  it("doctor lists the agents found or set up, and an installed hook the agent will not run as a problem", async () => {
    const check = (c: Partial<SetupCheck>): SetupCheck => ({ agent: 'claude', found: false, hooksInstalled: false, mcpInstalled: false, problems: [], ...c });
    const row = (label: string, byScope: Record<string, SetupCheck>): AgentSetupRow => ({
      agent: 'claude',
      label,
      scopes: ['user', 'workspace'],
      found: () => true,
      installHooks: () => Promise.resolve([]),
      uninstallHooks: () => Promise.resolve([]),
      installMcp: () => Promise.resolve([]),
      uninstallMcp: () => Promise.resolve([]),
      check: (_inst, scope) => (byScope[scope] ? Promise.resolve(byScope[scope]) : Promise.reject(new Error('unreadable config.toml'))),
    });
    const inst: Installation = { node: 'node', cli: 'cli.js', home: '/h', workspace: '/w', platform: 'linux' };
    const r = await agentChecks(inst, [
      row('Absent', { user: check({}), workspace: check({}) }),
      row('Found', { user: check({ found: true }), workspace: check({ found: true }) }),
      row('Untrusted', { user: check({ found: true, hooksInstalled: true, hooksRun: false, mcpInstalled: true, problems: ['the hook is not trusted: run …'] }), workspace: check({ found: true }) }),
      row('Broken', { user: check({ found: true }) }),
    ]);
    expect(r.lines).toEqual([
      "Found: nothing of zut's installed (zut-host hook install --agent claude --scope user --with-mcp)",
      'Untrusted: hooks (user) NOT RUN, MCP server (user)',
      "Broken: nothing of zut's installed (zut-host hook install --agent claude --scope user --with-mcp)",
    ]);
    expect(r.problems).toEqual(['Untrusted (user): the hook is not trusted: run …', 'Broken (workspace): cannot be checked: unreadable config.toml']);
  });
});
