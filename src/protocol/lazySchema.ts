/**
 * `lazySchema(() => z.object(…))`: a zod schema built on its first use instead of when its module loads. Loading
 * dist/extension.js is most of VS Code's activation figure (issue 41), and building the ~100 schemas of the frames,
 * manifests, sessions and settings at the bundle's top level was part of it; wrapped, they are built when the first
 * frame, manifest or setting is read, after activation. The value stands for the schema everywhere (`.parse`,
 * `.safeParse`, `.optional()`, inside `z.object`, `instanceof`, `z.infer<typeof X>`): a Proxy that builds it on the first
 * property read and forwards every operation to it. zod's methods are closures over the real schema, so a parse
 * costs one forwarded property read.
 */

/**
 * A call at a module's top level carries esbuild's `@__PURE__` annotation (a block comment just before it): a bundle
 * that never uses the schema then drops it, and zod with it when nothing else of zod is used (dist/panels.js).
 * esbuild 0.28 does not carry `@__NO_SIDE_EFFECTS__` on this declaration across files into a CommonJS bundle (tried).
 */
export function lazySchema<T extends object>(build: () => T): T {
  let schema: T | undefined;
  const real = (): T => {
    if (schema === undefined) {
      schema = build();
    }
    return schema;
  };
  // The target stays an empty extensible object: the traps report the real schema's properties as configurable, so
  // no Proxy invariant ties them to the target (zod defines `_zod` non-configurable on the real one).
  return new Proxy({} as T, {
    get: (_t, key) => Reflect.get(real(), key) as unknown,
    set: (_t, key, value) => Reflect.set(real(), key, value),
    has: (_t, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_t, key) => {
      const d = Reflect.getOwnPropertyDescriptor(real(), key);
      return d && { ...d, configurable: true };
    },
    defineProperty: (_t, key, d) => Reflect.defineProperty(real(), key, d),
    deleteProperty: (_t, key) => Reflect.deleteProperty(real(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}
