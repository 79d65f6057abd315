#!/usr/bin/env node
/*
 * Start the language server exactly as the extension does (src/server.js: `<serverPath> lsp`
 * over stdio, in the workspace folder), open a .cards file of a game with an error added,
 * and wait for the server's diagnostics. This is the extension's one promise that a grammar
 * test cannot check: the command it builds starts a server that answers over stdio.
 *
 * Usage: node tests/lsp_handshake.js SERVER_PATH WORKSPACE_FOLDER FILE.cards
 * (exit 0: diagnostics came back; 1: they did not, or the server failed)
 */
'use strict';

const childProcess = require('child_process');
const fs = require('fs');
const path = require('path');
const { pathToFileURL } = require('url');
const rpc = require('vscode-jsonrpc/node');
const { serverExecutable } = require('../src/server');

const TIMEOUT_MS = 60000;
const BROKEN = '\ncard "Broken" { nonsense }\n';

async function main([serverPath, folder, file]) {
  if (!file) {
    console.error('usage: node tests/lsp_handshake.js SERVER_PATH WORKSPACE_FOLDER FILE.cards');
    return 2;
  }
  const executable = serverExecutable(serverPath, path.resolve(folder));
  const server = childProcess.spawn(executable.command, executable.args, { ...executable.options, stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => server.on('exit', (code) => resolve(code)));
  const failed = new Promise((_, reject) => server.on('error', reject));
  const connection = rpc.createMessageConnection(new rpc.StreamMessageReader(server.stdout), new rpc.StreamMessageWriter(server.stdin));
  const uri = pathToFileURL(path.resolve(file)).href;
  const diagnosed = new Promise((resolve) => {
    connection.onNotification('textDocument/publishDiagnostics', (params) => {
      if (params.uri === uri && params.diagnostics.length > 0) resolve(params.diagnostics);
    });
  });
  connection.listen();
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no diagnostics for ${file} within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);
  });
  try {
    const initialized = await Promise.race([connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(path.resolve(folder)).href,
      workspaceFolders: [{ uri: pathToFileURL(path.resolve(folder)).href, name: path.basename(folder) }],
      capabilities: {},
    }), failed, timeout]);
    connection.sendNotification('initialized', {});
    connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'cardsmith', version: 1, text: fs.readFileSync(file, 'utf8') + BROKEN },
    });
    const diagnostics = await Promise.race([diagnosed, failed, timeout]);
    const name = initialized.serverInfo ? initialized.serverInfo.name : 'the server';
    console.log(`${name}: ${diagnostics.length} diagnostic(s), first: line ${diagnostics[0].range.start.line + 1}: ${diagnostics[0].message}`);
    await Promise.race([connection.sendRequest('shutdown'), timeout]);
    connection.sendNotification('exit');
    const code = await Promise.race([exited, timeout]);
    if (code !== 0) throw new Error(`the server exited with ${code} after shutdown`);
    return 0;
  } finally {
    clearTimeout(timer);
    connection.dispose();
    if (server.exitCode === null) server.kill();
  }
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (error) => {
  console.error(`lsp handshake: ${error && error.message ? error.message : error}`);
  process.exitCode = 1;
});
