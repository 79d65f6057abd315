#!/usr/bin/env node
/*
 * Tokenize every .cards file under the given folders with the extension's grammar, the way
 * VS Code does (vscode-textmate over the Oniguruma WebAssembly build), and fail on any line
 * the grammar does not account for.
 *
 * Why: the annotated tests (tests/*.test.cards) pin the scopes of chosen constructs; this run
 * shows the grammar holds on real games. A TextMate grammar never "fails" by itself, so a
 * failure here is one of: text left with no scope but the file's own (a token the grammar
 * has no rule for), an `invalid.*` scope (a character or word the language refuses), a
 * string or block still open at the end of the file, or a line that hit the time limit
 * (a regular expression that backtracks badly).
 *
 * Usage: node tests/tokenize_files.js DIR_OR_FILE...   (exit 0: all clean; 1: problems listed)
 */
'use strict';

const fs = require('fs');
const path = require('path');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const ROOT = path.resolve(__dirname, '..');
const GRAMMAR = path.join(ROOT, 'syntaxes', 'cardsmith.tmLanguage.json');
const SCOPE = 'source.cardsmith';
const LINE_TIME_LIMIT_MS = 200;

async function loadGrammar() {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async (scopeName) => (scopeName === SCOPE
      ? vsctm.parseRawGrammar(fs.readFileSync(GRAMMAR, 'utf8'), GRAMMAR)
      : null),
  });
  return registry.loadGrammar(SCOPE);
}

function cardsFiles(target) {
  const stat = fs.statSync(target);
  if (stat.isFile()) return target.endsWith('.cards') ? [target] : [];
  return fs.readdirSync(target).sort().flatMap((entry) => cardsFiles(path.join(target, entry)));
}

/** The problems of one file, as "file:line:col: message" strings. */
function checkFile(grammar, file) {
  const problems = [];
  const lines = fs.readFileSync(file, 'utf8').split(/\r?\n/);
  let stack = vsctm.INITIAL;
  let tokens = 0;
  lines.forEach((line, index) => {
    const where = (column) => `${file}:${index + 1}:${column + 1}`;
    const result = grammar.tokenizeLine(line, stack, LINE_TIME_LIMIT_MS);
    if (result.stoppedEarly) problems.push(`${where(0)}: tokenizing the line took over ${LINE_TIME_LIMIT_MS} ms`);
    for (const token of result.tokens) {
      tokens += 1;
      const text = line.slice(token.startIndex, token.endIndex);
      const invalid = token.scopes.find((scope) => scope.startsWith('invalid.'));
      if (invalid) problems.push(`${where(token.startIndex)}: ${JSON.stringify(text)} is ${invalid}`);
      else if (token.scopes.length === 1 && text.trim() !== '') {
        problems.push(`${where(token.startIndex)}: ${JSON.stringify(text)} has no scope`);
      }
    }
    stack = result.ruleStack;
  });
  if (stack.depth > 1) {
    problems.push(`${file}:${lines.length}:1: the file ends inside a region the grammar opened (an unclosed { or """?)`);
  }
  return { problems, lines: lines.length, tokens };
}

async function main(targets) {
  if (targets.length === 0) {
    console.error('usage: node tests/tokenize_files.js DIR_OR_FILE...');
    return 2;
  }
  const grammar = await loadGrammar();
  const files = targets.flatMap((target) => cardsFiles(path.resolve(target)));
  if (files.length === 0) {
    console.error(`no .cards files under ${targets.join(', ')}`);
    return 1;
  }
  const started = Date.now();
  let lines = 0;
  let tokens = 0;
  const problems = [];
  for (const file of files) {
    const checked = checkFile(grammar, file);
    lines += checked.lines;
    tokens += checked.tokens;
    problems.push(...checked.problems.map((p) => path.relative(process.cwd(), p.split(':')[0]) + p.slice(p.indexOf(':'))));
  }
  for (const problem of problems) console.error(problem);
  console.log(`${files.length} files, ${lines} lines, ${tokens} tokens in ${Date.now() - started} ms: `
    + `${problems.length ? problems.length + ' problems' : 'all tokenized'}`);
  return problems.length ? 1 : 0;
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (error) => {
  console.error(error && error.stack ? error.stack : String(error));
  process.exitCode = 1;
});
