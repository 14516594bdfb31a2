/**
 * The wire protocols the host speaks (see types.ts for the seam) and which one a discovered extension starts with.
 */
import type { DiscoveredExtension } from '../types';
import { zutFamily } from './hello';
import type { ProtocolFamily } from './types';

export * from './types';
export { zutFamily } from './hello';

/** The protocol family an extension's connection begins with (zut and zot extensions both start with `hello`). */
export function familyFor(_disc: DiscoveredExtension): ProtocolFamily {
  return zutFamily;
}
