/**
 * The wire protocols the host speaks (see types.ts for the seam) and which one a discovered extension starts with.
 */
import type { DiscoveredExtension } from '../types';
import { eFamily } from './e';
import { zutFamily } from './hello';
import type { ProtocolFamily } from './types';

export * from './types';
export { zutFamily } from './hello';
export { eFamily } from './e';

/**
 * The protocol family an extension's connection begins with: e extensions are sent `initialize` (the host speaks
 * first); zut and zot extensions both start with `hello`.
 */
export function familyFor(disc: DiscoveredExtension): ProtocolFamily {
  return disc.ecosystem === 'e' ? eFamily : zutFamily;
}
