/**
 * `--keys` / `--keys-file`: the keys `zut-host` sends to a panel. Each character is a `rune` key; `<name>` is a
 * named key (`<enter>`, `<esc>`, `<up>`, …; `<lt>` is a literal `<`). In a keys file a line break is `<enter>`
 * (a trailing one is ignored).
 */
import { PANEL_KEYS, type PanelKeyName } from '../protocol';

/** One key press as `panel_key` carries it. */
export interface KeyPress {
  key: PanelKeyName;
  text?: string;
}

/** Parses a key string; throws naming the bad `<token>`. */
export function parseKeys(spec: string): KeyPress[] {
  const keys: KeyPress[] = [];
  const named = new Set<string>(PANEL_KEYS.filter((k) => k !== 'rune'));
  for (let i = 0; i < spec.length; ) {
    const c = spec[i]!;
    if (c === '<') {
      const end = spec.indexOf('>', i);
      const name = end > i ? spec.slice(i + 1, end).toLowerCase() : '';
      if (name === 'lt') keys.push({ key: 'rune', text: '<' });
      else if (named.has(name)) keys.push({ key: name as PanelKeyName });
      else throw new Error(`unknown key <${name || spec.slice(i + 1, i + 12)}> in --keys (known: ${[...named].map((k) => `<${k}>`).join(' ')} <lt>)`);
      i = end + 1;
      continue;
    }
    const cp = spec.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    keys.push(ch === '\n' ? { key: 'enter' } : ch === '\t' ? { key: 'tab' } : { key: 'rune', text: ch });
    i += ch.length;
  }
  return keys;
}

/** A keys file's content (a single trailing line break dropped). */
export function parseKeysFile(content: string): KeyPress[] {
  return parseKeys(content.replace(/\r\n/g, '\n').replace(/\n$/, ''));
}
