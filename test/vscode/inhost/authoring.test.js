// @ts-check
// In-host: writing an extension. The contributed JSON Schema validates extension.json in the editor (the JSON
// language service reports a wrong type), "Zut: New Extension…" with arguments writes and starts an extension (a
// TypeScript one is checked by VS Code's TypeScript against the SDK's types),
// and a broken manifest is a `zut` diagnostic on its extension.json (naming the log) until it is fixed.
// Every test removes what it created (other suites share this extension host and workspace).
'use strict';
const assert = require('assert');
const { eventually } = require('./util');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');

const ID = 'zut.zut-vscode';
const WS = process.env.ZUT_TEST_WORKSPACE;

async function api() {
  return (await vscode.extensions.getExtension(ID).activate()).host;
}

const zutDiagnostics = (uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'zut');

suite('authoring: manifest schema, New Extension, Problems', () => {
  test('the manifest JSON Schema is contributed and the editor validates extension.json against it', async () => {
    const pkg = vscode.extensions.getExtension(ID).packageJSON;
    assert.deepStrictEqual(pkg.contributes.jsonValidation, [{ fileMatch: '**/.zut/extensions/*/extension.json', url: './dist/extension.schema.json' }]);
    const schemaFile = path.join(vscode.extensions.getExtension(ID).extensionPath, 'dist', 'extension.schema.json');
    const schema = JSON.parse(fs.readFileSync(schemaFile, 'utf8'));
    assert.deepStrictEqual(Object.keys(schema.properties), ['name', 'version', 'exec', 'args', 'language', 'description', 'skills', 'enabled']);
    assert.match(schema.properties.exec.markdownDescription, /program to run/);

    const dir = path.join(WS, '.zut', 'extensions', 'schema-check');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'extension.json');
    fs.writeFileSync(file, '{\n  "name": "schema-check",\n  "exec": 5,\n  "enabled": "yes"\n}\n');
    try {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
      await vscode.window.showTextDocument(doc);
      const schemaDiags = await eventually(() => {
        const d = vscode.languages.getDiagnostics(doc.uri).filter((x) => x.source !== 'zut');
        return d.length >= 2 && d;
      }, 'JSON schema diagnostics on extension.json', 30000);
      const lines = schemaDiags.map((d) => d.range.start.line).sort();
      assert.deepStrictEqual(lines, [2, 3], JSON.stringify(schemaDiags.map((d) => d.message)));
      assert.ok(schemaDiags.every((d) => /Incorrect type|Expected/i.test(d.message)), JSON.stringify(schemaDiags.map((d) => d.message)));
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the schema gives completion and hover docs in extension.json', async () => {
    const dir = path.join(WS, '.zut', 'extensions', 'schema-help');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'extension.json');
    fs.writeFileSync(file, '{\n  "name": "schema-help",\n  "exec": "./run.sh",\n  \n}\n');
    try {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
      await vscode.window.showTextDocument(doc);
      // Property names offered on the empty line: the schema's keys that are not there yet.
      const labels = await eventually(async () => {
        /** @type {import('vscode').CompletionList | undefined} */ const list = await vscode.commands.executeCommand('vscode.executeCompletionItemProvider', doc.uri, new vscode.Position(3, 2));
        const l = (list?.items ?? []).map((i) => (typeof i.label === 'string' ? i.label : i.label.label).replace(/"/g, ''));
        return l.includes('enabled') && l;
      }, 'schema completion in extension.json', 30000);
      for (const key of ['args', 'description', 'enabled', 'skills', 'version']) assert.ok(labels.includes(key), `completion offers ${key}: ${labels}`);
      // Hover on "exec" shows the schema's description.
      const hovers = await eventually(async () => {
        /** @type {import('vscode').Hover[] | undefined} */ const h = await vscode.commands.executeCommand('vscode.executeHoverProvider', doc.uri, new vscode.Position(2, 4));
        const text = (h ?? []).flatMap((x) => x.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
        return /program to run/.test(text) && text;
      }, 'schema hover on "exec"', 30000);
      assert.match(hovers, /program to run/);
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('zut.newExtension writes a TypeScript extension that runs; VS Code checks its main.ts against the SDK types', async () => {
    const host = await api();
    /** @type {any} */ const made = await vscode.commands.executeCommand('zut.newExtension', { lang: 'ts', name: 'inhost-ts', where: 'project' });
    try {
      await eventually(() => (host.extensions().find((e) => e.name === 'inhost-ts') || {}).state === 'running', 'inhost-ts running');
      assert.strictEqual((await host.invokeCommand('inhost-ts', 'Ada')).display, 'Hello from inhost-ts: Ada');
      const editor = vscode.window.activeTextEditor;
      assert.strictEqual(editor && editor.document.uri.fsPath, path.join(made.dir, 'main.ts'));
      const doc = editor.document;
      // Hover on `createExtension`: VS Code's TypeScript resolves it to the SDK's declaration (sdk/index.d.ts).
      const line = doc.getText().split('\n').findIndex((l) => l.startsWith('const ext = createExtension('));
      const hover = await eventually(async () => {
        /** @type {import('vscode').Hover[] | undefined} */ const h = await vscode.commands.executeCommand('vscode.executeHoverProvider', doc.uri, new vscode.Position(line, 'const ext = '.length + 2));
        const text = (h || []).flatMap((x) => x.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
        return /ExtensionOptions/.test(text) && text;
      }, 'a typed hover on createExtension', 45000);
      assert.match(hover, /createExtension\(options: ExtensionOptions\): Extension/);
      // A misuse of the SDK, typed in the editor (not saved): TypeScript's error on main.ts, against the SDK's types.
      const start = doc.getText().split('\n').findIndex((l) => l.startsWith('await ext.start()'));
      const edit = new vscode.WorkspaceEdit();
      edit.insert(doc.uri, new vscode.Position(start, 0), "ext.notify(5, 'loud');\n");
      assert.ok(await vscode.workspace.applyEdit(edit));
      const errors = await eventually(() => {
        const d = vscode.languages.getDiagnostics(doc.uri).filter((x) => x.source === 'ts');
        return d.length > 0 && d;
      }, 'a TypeScript diagnostic on main.ts', 45000);
      assert.ok(errors.every((d) => d.range.start.line === start), JSON.stringify(errors.map((d) => d.message)));
      assert.match(errors[0].message, /Argument of type 'number' is not assignable to parameter of type 'string'/);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      fs.rmSync(made.dir, { recursive: true, force: true });
      await vscode.commands.executeCommand('zut.reload');
    }
  });

  test('saving an extension\'s main file in the editor restarts it at once (not after the file watcher)', async () => {
    const host = await api();
    /** @type {any} */ const made = await vscode.commands.executeCommand('zut.newExtension', { lang: 'sh', name: 'inhost-save', where: 'project' });
    const zutLogs = () => {
      const walk = (d) => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : e.name === 'Zut.log' ? [path.join(d, e.name)] : []));
      return walk(process.env.ZUT_TEST_LOGS_DIR).map((f) => fs.readFileSync(f, 'utf8')).join('\n');
    };
    try {
      await eventually(() => (host.extensions().find((e) => e.name === 'inhost-save') || {}).state === 'running', 'inhost-save running');
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(made.mainFile));
      const at = doc.getText().indexOf('Hello from');
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, new vscode.Range(doc.positionAt(at), doc.positionAt(at + 'Hello'.length)), 'Saved');
      assert.ok(await vscode.workspace.applyEdit(edit));
      assert.ok(await vscode.workspace.save(doc.uri));
      await eventually(async () => {
        try { return (await host.invokeCommand('inhost-save', 'x')).display === 'Saved from inhost-save: x'; } catch { return false; }
      }, 'the saved behaviour', 30000);
      assert.match(zutLogs(), /Restarted inhost-save \(its manifest or executable saved in the editor\)/);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      fs.rmSync(made.dir, { recursive: true, force: true });
      await vscode.commands.executeCommand('zut.reload');
    }
  });

  test('zut.newExtension writes a Python extension that runs; a broken manifest is a Problems entry until fixed', async () => {
    const host = await api();
    const started = Date.now();
    /** @type {any} */ const made = await vscode.commands.executeCommand('zut.newExtension', { lang: 'python', name: 'inhost-py', where: 'project' });
    try {
      assert.strictEqual(made.dir, path.join(WS, '.zut', 'extensions', 'inhost-py'));
      await eventually(() => (host.extensions().find((e) => e.name === 'inhost-py') || {}).state === 'running', 'inhost-py running');
      const reply = await host.invokeCommand('inhost-py', 'Ada');
      assert.strictEqual(reply.display, 'Hello from inhost-py: Ada');
      console.log(`      zut.newExtension (python; the whole example workspace reloaded) to its command answering: ${Date.now() - started} ms`);
      assert.strictEqual(vscode.window.activeTextEditor && vscode.window.activeTextEditor.document.uri.fsPath, made.mainFile);
      const uri = vscode.Uri.file(made.manifestPath);
      assert.deepStrictEqual(zutDiagnostics(uri), []);

      // Break the manifest: a Problems entry on extension.json naming the log; fix it: gone.
      const good = fs.readFileSync(made.manifestPath, 'utf8');
      fs.writeFileSync(made.manifestPath, JSON.stringify({ name: 'inhost-py', exec: './missing.py' }));
      const [d] = await eventually(() => zutDiagnostics(uri).length > 0 && zutDiagnostics(uri), 'a zut diagnostic on the manifest');
      assert.match(d.message, /missing\.py/);
      assert.match(d.message, /ext-inhost-py\.log/);
      fs.writeFileSync(made.manifestPath, good);
      const py = () => host.extensions().find((e) => e.name === 'inhost-py') || {};
      await eventually(
        () => zutDiagnostics(uri).length === 0 && py().state === 'running',
        () => `the diagnostic cleared and inhost-py running (state ${py().state}, error ${py().error}, diagnostics ${JSON.stringify(zutDiagnostics(uri).map((d) => d.message))}, manifest ${fs.readFileSync(made.manifestPath, 'utf8').slice(0, 200)})`,
      );
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      fs.rmSync(made.dir, { recursive: true, force: true });
      await vscode.commands.executeCommand('zut.reload');
    }
  });
});
