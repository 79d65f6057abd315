"""The VS Code extension (editors/vscode), built and checked with the ecosystem's own tools.

Why here and not only in npm: the extension's grammar is generated from the language's
word lists (editors/vscode/scripts/build_grammar.py), so a keyword added to the compiler
must show up in the committed grammar; the grammar must hold on every .cards file of the
repository; the client must start the real `cardsmith lsp`; and the packaged .vsix must
carry what package.json promises. Each of those runs the tool a user would run:
`npm ci`, vscode-tmgrammar-test, vscode-textmate, `vsce package`.

Without npm these tests skip and say why, except under CI (CI=true), where they must run,
so a missing npm fails them (scripts/test.sh installs Node.js when it can).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

from cardsmith.dsl.diagnostics import DiagnosticSink
from cardsmith.dsl.source import SourceFile
from cardsmith.dsl.structure import parse_entries
from tests.conftest import LIBRARY, ROOT

EXTENSION = ROOT / "editors" / "vscode"
GRAMMAR = EXTENSION / "syntaxes" / "cardsmith.tmLanguage.json"
# The stamp `npm ci` leaves when it installed exactly this package.json and lockfile, so a
# second run (or a second test) does not install again.
STAMP = EXTENSION / "node_modules" / ".cardsmith-installed"
# @vscode/vsce 3 (package.json) runs on Node.js 20 or newer.
MIN_NODE = 20


def _run(command: list[str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(command, cwd=EXTENSION, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, (f"{' '.join(command)} exited with {result.returncode}:\n"
                                    f"{result.stdout}\n{result.stderr}")
    return result


def _manifest_digest() -> str:
    return hashlib.sha256((EXTENSION / "package.json").read_bytes()
                          + (EXTENSION / "package-lock.json").read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def node_modules() -> Path:
    """The extension's dependencies, installed from the lockfile with `npm ci` (once)."""
    npm, node = shutil.which("npm"), shutil.which("node")
    if npm is None or node is None:
        if os.environ.get("CI"):
            pytest.fail("Node.js and npm are not installed, and CI must build the VS Code extension "
                        "(scripts/test.sh installs them)")
        pytest.skip("Node.js and npm are not installed (apt-get install nodejs npm); the VS Code extension needs them")
    version = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
    if int(version.lstrip("v").split(".")[0] or 0) < MIN_NODE:
        message = f"Node.js {version} is too old: @vscode/vsce needs Node.js {MIN_NODE} or newer"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    if not (STAMP.exists() and STAMP.read_text() == _manifest_digest()):
        # --ignore-scripts: no dependency needs its install script to package or to test
        # (the one that has one, @vscode/vsce-sign, signs for the Marketplace).
        _run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"], timeout=600)
        STAMP.write_text(_manifest_digest())
    return EXTENSION / "node_modules"


def _tool(node_modules: Path, name: str) -> str:
    return str(node_modules / ".bin" / name)


def _grammar_builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_grammar", EXTENSION / "scripts" / "build_grammar.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_grammar_is_the_one_the_language_generates() -> None:
    builder = _grammar_builder()
    assert GRAMMAR.read_text(encoding="utf-8") == builder.render(), (
        "syntaxes/cardsmith.tmLanguage.json is out of date: "
        "run .venv/bin/python editors/vscode/scripts/build_grammar.py")
    # Words from each of the lists it reads: declarations, statements, abilities, expressions.
    rules = json.dumps(json.loads(GRAMMAR.read_text(encoding="utf-8"))["repository"])
    for word in ("scenario", "procedure", "expect", "simultaneously", "activate", "permanently", "another"):
        assert re.search(rf"[(|]{word}[|)]", rules), word


def test_the_grammar_tests_pass(node_modules: Path) -> None:
    result = _run([_tool(node_modules, "vscode-tmgrammar-test"), "tests/*.test.cards"])
    for test in sorted((EXTENSION / "tests").glob("*.test.cards")):
        assert f"{test.relative_to(EXTENSION)} run successfuly" in result.stdout, result.stdout


def test_every_cards_file_of_the_repository_tokenizes(node_modules: Path) -> None:
    folders = [LIBRARY, ROOT / "benchmarks" / "games", ROOT / "tests" / "conformance"]
    result = _run(["node", "tests/tokenize_files.js", *map(str, folders)])
    files = sum(1 for folder in folders for _ in folder.rglob("*.cards"))
    assert f"{files} files," in result.stdout and "all tokenized" in result.stdout, result.stdout


def test_a_broken_file_is_reported_by_the_library_run(node_modules: Path, tmp_path: Path) -> None:
    """The library run is only worth something if it can fail: a stray character, a refused
    word and an unclosed block are each reported with their place."""
    broken = tmp_path / "broken.cards"
    broken.write_text('card "X" {\n  type: `Unit`\n  flag: true\n', encoding="utf-8")
    result = subprocess.run(["node", "tests/tokenize_files.js", str(broken)], cwd=EXTENSION,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert "broken.cards:2:9: \"`\" is invalid.illegal.character" in result.stderr, result.stderr
    assert "broken.cards:3:9: \"true\" is invalid.illegal.refused" in result.stderr, result.stderr
    assert "broken.cards:4:1: the file ends inside a region" in result.stderr, result.stderr


def test_the_client_starts_cardsmith_lsp_and_gets_diagnostics(node_modules: Path, tmp_path: Path) -> None:
    _run(["node", "tests/server_options.test.js"])
    game = tmp_path / "combat_cards"
    shutil.copytree(LIBRARY / "combat_cards", game)
    cardsmith = Path(sys.executable).parent / "cardsmith"
    result = _run(["node", "tests/lsp_handshake.js", str(cardsmith), str(game), str(game / "cards" / "fantasy.cards")])
    assert "diagnostic(s), first: line" in result.stdout and "'Broken'" in result.stdout, result.stdout


def _expand(body: str) -> str:
    """A snippet as VS Code inserts it when every placeholder keeps its default: `${1:x}`
    and its mirrors `$1` become `x`, `$0` nothing, `\\}` a brace, a tab two spaces."""
    defaults: dict[str, str] = {}

    def text(at: int, inside: bool) -> tuple[str, int]:
        out = []
        while at < len(body):
            char = body[at]
            if char == "\\" and at + 1 < len(body):
                out.append(body[at + 1])
                at += 2
            elif inside and char == "}":
                return "".join(out), at + 1
            elif (tabstop := re.match(r"\$\{(\d+):", body[at:])) is not None:
                default, at = text(at + tabstop.end(), True)
                defaults[tabstop.group(1)] = default
                out.append(default)
            elif (mirror := re.match(r"\$(\d+)", body[at:])) is not None:
                out.append(defaults.get(mirror.group(1), ""))
                at += mirror.end()
            else:
                out.append("  " if char == "\t" else char)
                at += 1
        return "".join(out), at

    return text(0, False)[0]


def test_the_snippets_expand_to_cards_that_parse_and_tokenize(node_modules: Path, tmp_path: Path) -> None:
    snippets = json.loads((EXTENSION / "snippets" / "cardsmith.json").read_text(encoding="utf-8"))
    for name, snippet in snippets.items():
        expanded = _expand("\n".join(snippet["body"])) + "\n"
        path = tmp_path / f"{snippet['prefix']}.cards"
        path.write_text(expanded, encoding="utf-8")
        sink = DiagnosticSink()
        entries = parse_entries(SourceFile(str(path), expanded), sink)
        assert not sink.items and entries, f"snippet {name!r} does not parse:\n{expanded}{sink.items}"
        assert "$" not in expanded and "\\" not in expanded, expanded
    result = _run(["node", "tests/tokenize_files.js", str(tmp_path)])
    assert f"{len(snippets)} files," in result.stdout and "all tokenized" in result.stdout, result.stdout


def test_vsce_packages_the_grammar_snippets_and_client(node_modules: Path, tmp_path: Path) -> None:
    manifest = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))
    vsix = tmp_path / f"cardsmith-{manifest['version']}.vsix"
    _run([_tool(node_modules, "vsce"), "package", "--allow-missing-repository", "--out", str(vsix)])
    with zipfile.ZipFile(vsix) as archive:
        names = set(archive.namelist())
        packaged = json.loads(archive.read("extension/package.json"))
        contributes = packaged["contributes"]
        promised = [contributes["languages"][0]["configuration"], contributes["grammars"][0]["path"],
                    contributes["snippets"][0]["path"], packaged["main"]]
        for path in promised:
            assert "extension/" + path.removeprefix("./") in names, path
        assert archive.read("extension/syntaxes/cardsmith.tmLanguage.json") == GRAMMAR.read_bytes()
        snippets = json.loads(archive.read("extension/snippets/cardsmith.json"))
        assert {"card", "keyword", "procedure", "scenario"} <= {s["prefix"] for s in snippets.values()}
        assert "extension/node_modules/vscode-languageclient/package.json" in names
        assert not any(name.startswith(("extension/tests/", "extension/scripts/")) for name in names)
        archive.extractall(tmp_path / "unpacked")
    result = _run(["node", "tests/load_packaged.js", str(tmp_path / "unpacked")])
    assert "loads with its dependencies" in result.stdout, result.stdout
    assert contributes["languages"][0]["extensions"] == [".cards"]
    assert packaged["activationEvents"] == ["onLanguage:cardsmith"]
    assert contributes["configuration"]["properties"]["cardsmith.serverPath"]["default"] == "cardsmith"
