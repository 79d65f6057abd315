'use strict';
/*
 * The VS Code client of the cardsmith language server.
 *
 * Highlighting, brackets and snippets are declarative (package.json); what needs code is
 * starting `cardsmith lsp` for .cards files and keeping it in step with the settings: the
 * server is restarted when `cardsmith.serverPath` changes or on the "Restart Language
 * Server" command, and a server that cannot be started says which setting to fix instead of
 * failing silently. vscode-languageclient does the protocol: diagnostics, and whatever else
 * the server offers.
 */

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');
const { serverExecutable } = require('./server');

const LANGUAGE = 'cardsmith';
const SECTION = 'cardsmith';

/** @type {LanguageClient | undefined} */
let client;
/** @type {vscode.OutputChannel | undefined} */
let output;

function workspaceFolder() {
  const folders = vscode.workspace.workspaceFolders;
  return folders && folders.length ? folders[0].uri.fsPath : undefined;
}

function createClient() {
  const setting = vscode.workspace.getConfiguration(SECTION).get('serverPath');
  const executable = { ...serverExecutable(setting, workspaceFolder()), transport: TransportKind.stdio };
  return new LanguageClient(LANGUAGE, 'Cardsmith', { run: executable, debug: executable }, {
    documentSelector: [{ scheme: 'file', language: LANGUAGE }, { scheme: 'untitled', language: LANGUAGE }],
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/*.cards') },
    outputChannel: output,
  });
}

async function start() {
  client = createClient();
  try {
    await client.start();
  } catch (error) {
    const command = serverExecutable(vscode.workspace.getConfiguration(SECTION).get('serverPath'), workspaceFolder());
    const choice = await vscode.window.showErrorMessage(
      `Cardsmith: could not start the language server with \`${command.command} lsp\` (${error && error.message ? error.message : error}). `
      + 'Install cardsmith, or set "cardsmith.serverPath" to its command.',
      'Open Settings');
    if (choice === 'Open Settings') {
      await vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.serverPath`);
    }
  }
}

async function stop() {
  const running = client;
  client = undefined;
  if (running && running.isRunning()) await running.stop();
}

async function restart() {
  await stop();
  await start();
}

/** @param {vscode.ExtensionContext} context */
async function activate(context) {
  output = vscode.window.createOutputChannel('Cardsmith');
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('cardsmith.restartServer', restart),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${SECTION}.serverPath`)) restart();
    }),
  );
  await start();
}

function deactivate() {
  return stop();
}

module.exports = { activate, deactivate };
