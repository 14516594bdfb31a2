// Entry of the TypeScript transform a new TypeScript extension carries (sdk/sucrase.js, built by scripts/sdk.mjs):
// sucrase's `typescript` transform alone. ES modules and modern syntax are kept as written (Node 20 runs them);
// types, interfaces, `as`, `satisfies`, type-only imports and exports are removed; enums and parameter properties
// become JavaScript. It mirrors sucrase's own `transform()` (dist/esm/index.js of the pinned version) for these
// fixed options, without its option validation (that pulls in ts-interface-checker) or source maps: the output
// keeps every line where it was, so stack traces point at the right line of the .ts file.
import { parse } from 'sucrase/dist/esm/parser/index.js';
import NameManager from 'sucrase/dist/esm/NameManager.js';
import { HelperManager } from 'sucrase/dist/esm/HelperManager.js';
import TokenProcessor from 'sucrase/dist/esm/TokenProcessor.js';
import identifyShadowedGlobals from 'sucrase/dist/esm/identifyShadowedGlobals.js';
import getTSImportedNames from 'sucrase/dist/esm/util/getTSImportedNames.js';
import RootTransformer from 'sucrase/dist/esm/transformers/RootTransformer.js';

const OPTIONS = { transforms: ['typescript'], disableESTransforms: true };

/**
 * TypeScript source → JavaScript (an ES module). Does not type-check. On code it cannot parse it throws a
 * SyntaxError `<filePath>:<line>:<column>: <what>` (1-based, as editors link them) with code `ERR_TS_SYNTAX`.
 * @param {string} code
 * @param {string} filePath
 * @returns {string}
 */
export function transformTypeScript(code, filePath) {
  try {
    const file = parse(code, false, true, false);
    const nameManager = new NameManager(code, file.tokens);
    const helperManager = new HelperManager(nameManager);
    const tokenProcessor = new TokenProcessor(code, file.tokens, false, true, helperManager);
    identifyShadowedGlobals(tokenProcessor, file.scopes, getTSImportedNames(tokenProcessor));
    const context = { tokenProcessor, scopes: file.scopes, nameManager, importProcessor: null, helperManager };
    return new RootTransformer(context, OPTIONS.transforms, false, { ...OPTIONS, filePath }).transform().code;
  } catch (e) {
    const loc = e && typeof e === 'object' && 'loc' in e ? e.loc : undefined;
    if (!(e instanceof SyntaxError) || !loc) {
      if (e instanceof Error) e.message = `${filePath}: ${e.message}`;
      throw e;
    }
    const err = new SyntaxError(`${filePath}:${loc.line}:${loc.column + 1}: ${e.message.replace(/ \(\d+:\d+\)$/, '')}`);
    err.code = 'ERR_TS_SYNTAX';
    throw err;
  }
}
