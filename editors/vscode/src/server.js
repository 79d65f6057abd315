'use strict';
/*
 * How the extension starts the language server, kept free of the `vscode` module so that
 * tests/server_options.test.js can check it with plain node.
 *
 * The server is cardsmith itself: `<cardsmith.serverPath> lsp`, speaking the Language Server
 * Protocol over stdin/stdout. The setting defaults to `cardsmith` (found on the PATH); a
 * project that installs cardsmith in a virtual environment points it at that environment's
 * script, absolutely or relative to the workspace folder (`.venv/bin/cardsmith`).
 */

const os = require('os');
const path = require('path');

const DEFAULT_SERVER_PATH = 'cardsmith';

/**
 * The program to run for a `cardsmith.serverPath` value.
 * A bare name is left for the PATH lookup; `~` is the home folder; `${workspaceFolder}` and
 * other relative paths are read from the workspace folder (when there is one).
 * @param {string | undefined} setting
 * @param {string | undefined} workspaceFolder
 * @returns {string}
 */
function resolveServerPath(setting, workspaceFolder) {
  let command = (setting || '').trim() || DEFAULT_SERVER_PATH;
  if (workspaceFolder) command = command.split('${workspaceFolder}').join(workspaceFolder);
  if (command === '~' || command.startsWith('~/')) command = path.join(os.homedir(), command.slice(1));
  const isBareName = !command.includes('/') && !command.includes('\\');
  if (isBareName || path.isAbsolute(command) || !workspaceFolder) return command;
  return path.resolve(workspaceFolder, command);
}

/**
 * The executable vscode-languageclient starts: `<serverPath> lsp` over stdio, run in the
 * workspace folder so that relative paths in the server's messages read as the user's.
 * @param {string | undefined} setting
 * @param {string | undefined} workspaceFolder
 * @returns {{command: string, args: string[], options: {cwd?: string}}}
 */
function serverExecutable(setting, workspaceFolder) {
  return {
    command: resolveServerPath(setting, workspaceFolder),
    args: ['lsp'],
    options: workspaceFolder ? { cwd: workspaceFolder } : {},
  };
}

module.exports = { DEFAULT_SERVER_PATH, resolveServerPath, serverExecutable };
