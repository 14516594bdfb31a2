/**
 * The one way dist/extension.js loads a bundle of its own beside it (dist/<name>.js) at its first use instead of at
 * activation: ARCHITECTURE.md "Lazy bundles" lists them and why. (The foreign-tool table is the build's own stand-in,
 * esbuild.mjs `lazyStandIn`, since the VS Code-free host imports it.)
 */
import { createRequire } from 'node:module';

/** The bundles built beside dist/extension.js for it (esbuild.mjs, the third entry set; ARCHITECTURE.md "Lazy bundles"). */
export type LazyBundleName = 'relay-server' | 'hook-server' | 'agent-setup' | 'new-extension' | 'chat' | 'management' | 'panels';

/** A loader of `dist/<name>.js` (typed as the module it was built from), which requires it on its first call only. */
export function lazyBundle<T>(context: { asAbsolutePath(relativePath: string): string }, name: LazyBundleName): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= createRequire(__filename)(context.asAbsolutePath(`dist/${name}.js`)) as T);
}
