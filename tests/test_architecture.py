"""The architecture as a contract (issue 13): layers, no import cycles, small modules.

- The layers in pyproject.toml (`[tool.importlinter]`): `__main__ > cli > app >
  {decks, printables, engine} > compiler > dsl > model > util`. A module imports only
  from layers below its own, and the siblings of a layer not from each other. This runs
  import-linter itself, the same check as `lint-imports` at the command line.
- No import cycles among cardsmith's modules, counting imports inside functions (a lazy
  import that only hides a cycle is a cycle); imports made only for type annotations
  (`if TYPE_CHECKING:`) are not imports at run time and are left out.
- No module over LONGEST lines unless its docstring says why ("Long because: ...").
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "cardsmith"
LONGEST = 650


def test_the_layers_contract_holds() -> None:
    script = ("import sys; from importlinter.cli import lint_imports_command; "
              "sys.argv = ['lint-imports']; lint_imports_command()")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "1 kept, 0 broken" in done.stdout, done.stdout[-2000:]


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph.modules):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.find_modules_directly_imported_by(start))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.find_modules_directly_imported_by(child)))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_no_import_cycles_not_even_through_lazy_imports() -> None:
    graph = grimp.build_graph("cardsmith", exclude_type_checking_imports=True)
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    """The check above has teeth: a planted cycle is found."""
    graph = grimp.ImportGraph()
    for name in ("a", "a.x", "a.y", "a.z"):
        graph.add_module(name)
    graph.add_import(importer="a.x", imported="a.y")
    graph.add_import(importer="a.y", imported="a.z")
    graph.add_import(importer="a.z", imported="a.x")
    assert _cycles(graph) == [["a.x", "a.y", "a.z"]]


def test_no_module_is_long_without_saying_why() -> None:
    long = []
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines = text.count("\n")
        if lines > LONGEST and "Long because:" not in (ast.get_docstring(ast.parse(text)) or ""):
            long.append(f"{path.relative_to(ROOT)}: {lines} lines")
    assert long == [], "split these, or say in the docstring why one module ('Long because: ...')"
