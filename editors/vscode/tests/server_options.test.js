#!/usr/bin/env node
/*
 * The client's one decision that can be checked without VS Code: which command it runs for
 * a `cardsmith.serverPath` setting. (The rest of src/extension.js is vscode-languageclient's
 * wiring; the packaged extension is checked by tests/test_vscode_extension.py.)
 */
'use strict';

const assert = require('assert');
const os = require('os');
const path = require('path');
const { resolveServerPath, serverExecutable, DEFAULT_SERVER_PATH } = require('../src/server');

const folder = path.resolve('/projects/my-game');

// `<serverPath> lsp` over stdio, in the workspace folder.
assert.deepStrictEqual(serverExecutable(undefined, folder), { command: 'cardsmith', args: ['lsp'], options: { cwd: folder } });
assert.deepStrictEqual(serverExecutable('cardsmith', undefined), { command: 'cardsmith', args: ['lsp'], options: {} });
// The default matches the setting's default in package.json.
const manifest = require('../package.json');
assert.strictEqual(manifest.contributes.configuration.properties['cardsmith.serverPath'].default, DEFAULT_SERVER_PATH);
assert.ok(manifest.activationEvents.includes('onLanguage:cardsmith'));
// A bare name is looked up on the PATH; an empty setting falls back to the default.
assert.strictEqual(resolveServerPath('cardsmith', folder), 'cardsmith');
assert.strictEqual(resolveServerPath('  ', folder), 'cardsmith');
// Relative paths are the workspace folder's; absolute ones and ~ are kept as the user means them.
assert.strictEqual(resolveServerPath('.venv/bin/cardsmith', folder), path.join(folder, '.venv', 'bin', 'cardsmith'));
assert.strictEqual(resolveServerPath('${workspaceFolder}/.venv/bin/cardsmith', folder), path.join(folder, '.venv', 'bin', 'cardsmith'));
assert.strictEqual(resolveServerPath('/opt/cardsmith/bin/cardsmith', folder), '/opt/cardsmith/bin/cardsmith');
assert.strictEqual(resolveServerPath('~/.local/bin/cardsmith', folder), path.join(os.homedir(), '.local', 'bin', 'cardsmith'));
// Without a workspace folder a relative path is left to the process's own folder.
assert.strictEqual(resolveServerPath('.venv/bin/cardsmith', undefined), '.venv/bin/cardsmith');

console.log('server options: ok');
