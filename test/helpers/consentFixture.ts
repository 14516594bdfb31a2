/**
 * A Manager in consent mode `ask` over a fresh project and zut home, with a marker file the test's extensions append
 * to when they start (so "did not run" is checked on disk, not inferred from a state), and the sh body of a v2
 * extension. Shared by the consent tests (consentHoles, consentState, consentOwn).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ManagerOptions } from '../../src/host/api';
import { MemoryChoices, managerFixture, tempDir } from './hostFixtures';

export function consentSetup(opts: Partial<ManagerOptions> = {}) {
  const choices = new MemoryChoices();
  const s = managerFixture({ hostVersion: '1.0.0', autoRestart: false, consent: { mode: () => 'ask', choices }, ...opts }, 'zut-consent-');
  const m = s.make();
  const marker = path.join(tempDir('zut-marker-'), 'ran');
  const ran = (): string => (fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : '');
  const info = (n: string) => m.extensions().find((e) => e.name === n)!;
  return { ...s, m, choices, marker, ran, info };
}

/**
 * A v2 handshake then wait for shutdown, in sh; `pre` runs first (the line that records what ran); `onAck` runs
 * with the hello_ack line in `$l` when it arrives.
 */
export function shBody(name: string, pre: string, onAck = ':'): string {
  const hello = JSON.stringify({ type: 'hello', protocol_version: 2, name, version: '1.0.0', capabilities: [] });
  return (
    `${pre}\nprintf '%s\\n' '${hello}'\n` +
    `while IFS= read -r l; do case "$l" in *'"hello_ack"'*) ${onAck}; printf '%s\\n' '{"type":"ready"}';; *'"shutdown"'*) exit 0;; esac; done\n`
  );
}
