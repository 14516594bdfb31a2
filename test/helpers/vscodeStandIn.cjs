// A stand-in `vscode` module for loading an extension bundle in plain Node (bench/activationChild.cjs, the activation
// row; test/unit/fixtures/activationProbe.cjs, what activation loads): every API name of @types/vscode (read from the
// project's own copy), each a recursive no-op Proxy whose calls return more of the same, configuration reads
// returning the defaults package.json contributes (as VS Code's do for a setting nobody set), no workspace folders.
'use strict';
const fs = require('fs');
const path = require('path');

/**
 * A recursive no-op: any property, call or construction gives another; `names` are listed as its own keys;
 * `fixed` gives some properties a value of their own.
 */
function stub(names = [], fixed = {}) {
  const cache = new Map();
  const p = new Proxy(function () {}, {
    get(t, k) {
      if (Object.prototype.hasOwnProperty.call(fixed, k)) return fixed[k];
      if (k === 'then') return undefined;
      if (k === Symbol.toPrimitive) return (hint) => (hint === 'number' ? 0 : '');
      if (k === Symbol.iterator) return function* () {};
      if (k === 'toString' || k === 'valueOf' || k === 'toJSON') return () => '';
      if (k === 'length') return 0;
      if (k === 'prototype') return t.prototype;
      if (k === 'get') return (_key, d) => d;
      if (k === 'workspaceFolders') return undefined;
      if (typeof k === 'symbol') return undefined;
      if (!cache.has(k)) cache.set(k, stub());
      return cache.get(k);
    },
    ownKeys(t) { return [...new Set([...Reflect.ownKeys(t), ...names])]; },
    getOwnPropertyDescriptor(t, k) { return Reflect.getOwnPropertyDescriptor(t, k) ?? (names.includes(k) ? { configurable: true, enumerable: true, writable: true, value: p[k] } : undefined); },
    apply() { return stub(); },
    construct() { return stub(); },
  });
  return p;
}

/**
 * `workspace.getConfiguration` of a window where no setting is set: each read gives the default `cwd`'s
 * package.json contributes (or the caller's), `inspect` only that default.
 */
function configurationStandIn(cwd) {
  const c = JSON.parse(fs.readFileSync(path.join(cwd, 'package.json'), 'utf8')).contributes?.configuration;
  const props = Object.assign({}, ...(Array.isArray(c) ? c : [c]).map((x) => x?.properties ?? {}));
  return (section) => {
    const full = (k) => (section ? `${section}.${k}` : k);
    const known = (k) => Object.prototype.hasOwnProperty.call(props, full(k));
    return {
      get: (k, d) => (known(k) ? props[full(k)].default : d),
      has: (k) => known(k),
      inspect: (k) => ({ key: full(k), defaultValue: known(k) ? props[full(k)].default : undefined }),
      update: () => Promise.resolve(),
    };
  };
}

/** The `vscode` module's stand-in, with every top-level name @types/vscode declares (resolved from `cwd`). */
function vscodeStandIn(cwd = process.cwd()) {
  const names = [...new Set([...fs.readFileSync(require.resolve('@types/vscode/index.d.ts', { paths: [cwd] }), 'utf8')
    .matchAll(/^\s{1,4}export (?:namespace|class|enum|const|function|let) (\w+)/gm)].map((m) => m[1]))];
  return stub(names, { workspace: stub([], { getConfiguration: configurationStandIn(cwd) }) });
}

module.exports = { stub, vscodeStandIn };
