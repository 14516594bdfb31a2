/**
 * "Copy MCP Client Configuration…" → Copilot CLI: zut's server written into (or taken out of) Copilot CLI's own
 * `$COPILOT_HOME/mcp-config.json`, which VS Code's Copilot harness reads too (src/agentSetup/copilotMcp.ts: merged as
 * text, the user's other servers kept), or the snippet copied instead. Part of dist/agent-setup.js
 * (agentSetupCommands.ts calls it).
 */
import * as vscode from 'vscode';
import { applyCopilotMcp, copilotMcpFile, copilotMcpNamesZut, removeCopilotMcp, type CopilotMcpAction } from '../agentSetup/copilotMcp';
import type { Installation } from '../agentSetup/hookInstall';

/**
 * Asks (unless `given`) whether to write zut's server into Copilot CLI's file, take it out, or copy the snippet; does
 * the first two. Resolves with what was written or removed, `'copy'` for the snippet, undefined when dismissed.
 */
export async function copilotCliMcp(inst: Installation, given: CopilotMcpAction | undefined): Promise<{ client: 'copilot-cli'; text: string } | 'copy' | undefined> {
  const file = copilotMcpFile(inst.home);
  let action = given;
  if (!action) {
    const present = await copilotMcpNamesZut(inst.home);
    const detail =
      "Copilot CLI and VS Code's Copilot harness then start zut-host mcp with your global extensions only (the folder's own are never started). Other servers in the file stay as they are. " +
      "With zut's agent plugin on, the Copilot harness also gets the plugin's zut server: keep one (Where zut Reaches warns).";
    const picked = present
      ? await vscode.window.showInformationMessage(`Copilot CLI: zut's MCP server is in ${file}.`, { modal: true, detail: 'Remove takes out exactly the zut entry; Write Again replaces it with this installation\'s.' }, 'Remove', 'Write Again', 'Copy Instead')
      : await vscode.window.showInformationMessage(`Write zut's MCP server into Copilot CLI's ${file}?`, { modal: true, detail }, 'Write', 'Copy Instead');
    if (!picked) return undefined;
    action = picked === 'Remove' ? 'remove' : picked === 'Copy Instead' ? 'copy' : 'write';
  }
  if (action === 'copy') return 'copy';
  if (action === 'remove') {
    const steps = await removeCopilotMcp(inst.home);
    void vscode.window.showInformationMessage(steps.length ? `Copilot CLI no longer starts zut's MCP server: removed from ${file}.` : `No zut server was in ${file}.`);
    return { client: 'copilot-cli', text: steps.flatMap((s) => s.changes).join('\n') };
  }
  const steps = await applyCopilotMcp(inst);
  void vscode.window.showInformationMessage(`Copilot CLI and VS Code's Copilot harness now start zut's MCP server (${file}).`, 'Open File').then((b) => {
    if (b) void vscode.window.showTextDocument(vscode.Uri.file(file));
  });
  return { client: 'copilot-cli', text: steps.flatMap((s) => s.changes).join('\n') };
}
