/** `zut-host new --lang ts|python|go|sh [--dir DIR] NAME`: the generator behind "Zut: New Extension…". */
import * as path from 'node:path';
import { createNewExtension, isNewExtensionLang, NEW_EXTENSION_LANGS } from '../host/authoring/newExtension';
import { projectExtensionsDir } from '../host/disk/paths';
import { cwdOf, EXIT, UsageError, write, type Parsed } from './common';

/** The built SDK beside the bundle (dist/cli.js → dist/sdk). */
function bundledSdkDir(): string {
  return path.join(__dirname, 'sdk');
}

export async function newExtension(p: Parsed): Promise<number> {
  const [, name, ...extra] = p.positionals;
  if (!name) throw new UsageError('new needs a NAME');
  if (extra.length > 0) throw new UsageError('new takes one NAME');
  const lang = p.values.lang;
  if (lang === undefined || !isNewExtensionLang(lang)) throw new UsageError(`--lang must be one of ${NEW_EXTENSION_LANGS.join(', ')}`);
  const root = path.resolve(p.values.dir ?? projectExtensionsDir(cwdOf(p)));
  const made = await createNewExtension({ lang, name, root, sdkDir: bundledSdkDir() });
  const rel = path.relative(process.cwd(), made.dir) || '.';
  await write(
    process.stdout,
    [
      `created ${made.dir}`,
      ...made.files.map((f) => `  ${f}`),
      '',
      `try it:`,
      `  zut-host command --ext ${rel} ${made.command} Ada`,
      `  zut-host tool --ext ${rel} ${made.tool} '{"who":"Ada"}'`,
      `edit ${path.relative(process.cwd(), made.mainFile)}; in VS Code, saving it restarts the extension.`,
      '',
    ].join('\n'),
  );
  return EXIT.ok;
}
