/** An `ExtensionInfo` for model and report tests: a running project extension "x" with nothing registered. */
import type { ExtensionInfo } from '../../src/host/types';

export function extensionInfo(over: Partial<ExtensionInfo> = {}): ExtensionInfo {
  return {
    name: 'x',
    dir: '/w/.zut/extensions/x',
    manifestPath: '/w/.zut/extensions/x/extension.json',
    scope: 'project',
    state: 'running',
    logPath: '/z/logs/ext-x.log',
    diagnostics: [],
    capabilities: [],
    commands: [],
    tools: [],
    subscriptions: [],
    interceptions: [],
    skills: [],
    restarts: 0,
    pending: 0,
    ...over,
  };
}
