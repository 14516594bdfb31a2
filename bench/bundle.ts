/**
 * Bundle: the size of the release (minified) dist/extension.js and panel script, built by bench/run.mjs into a
 * temp dir (ZUT_BENCH_BUNDLE_DIR) with esbuild.mjs's options. Information (issue 28: activation is judged against a
 * hello-world extension's instead, bench/activation.ts); the limit stays held at package time.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { summarize, type BenchRow } from './stats';

/** scripts/package.mjs's BUNDLE_LIMIT_BYTES (the package-time check and test/unit/bundle.test.ts hold it too). */
const LIMIT_BYTES = 350_000;

export function benchBundle(): Promise<BenchRow> {
  const dir = process.env.ZUT_BENCH_BUNDLE_DIR;
  if (!dir) throw new Error('bundle: run through npm run bench (bench/run.mjs builds the release bundle)');
  const size = (f: string) => fs.statSync(path.join(dir, f)).size;
  const ext = size('extension.js');
  return Promise.resolve({
    id: 'bundle',
    figure: 'Bundle: dist/extension.js in the vsix (release build)',
    ours: summarize([ext / 1000]),
    unit: 'KB',
    goal: 'info',
    pass: true,
    notes: [`${ext.toLocaleString('en-US')} bytes (${ext <= LIMIT_BYTES ? 'within' : 'OVER'} the ${LIMIT_BYTES / 1000} KB limit npm run package and test/unit/bundle.test.ts hold); panel script ${size('media/panel.js').toLocaleString('en-US')} bytes`],
  });
}
