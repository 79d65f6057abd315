#!/usr/bin/env node
/*
 * Load the client from an unpacked .vsix, outside VS Code: proof that the package carries
 * everything src/extension.js requires (vscode-languageclient and its own dependencies,
 * after .vscodeignore has left files out). The `vscode` module, which only VS Code
 * provides, is replaced by a stand-in that accepts any use; nothing is activated.
 *
 * Usage: node tests/load_packaged.js UNPACKED_VSIX_FOLDER
 */
'use strict';

const Module = require('module');
const path = require('path');

const folder = process.argv[2];
if (!folder) {
  console.error('usage: node tests/load_packaged.js UNPACKED_VSIX_FOLDER');
  process.exit(2);
}
const anything = { get: (target, key) => (key in target ? target[key] : new Proxy(function () {}, anything)),
  apply: () => new Proxy(function () {}, anything), construct: () => new Proxy({}, anything) };
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'vscode' ? 'vscode' : resolve.call(this, request, ...rest);
};
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: new Proxy({}, anything) };

const manifest = require(path.resolve(folder, 'extension', 'package.json'));
const extension = require(path.resolve(folder, 'extension', manifest.main));
if (typeof extension.activate !== 'function' || typeof extension.deactivate !== 'function') {
  console.error(`${manifest.main} exports no activate/deactivate`);
  process.exit(1);
}
console.log(`${manifest.name} ${manifest.version}: ${manifest.main} loads with its dependencies`);
